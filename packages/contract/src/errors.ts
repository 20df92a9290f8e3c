/** Stable error types answered in `{status:"ERROR", error_type}` bodies (HTTP 412) and by the web client. */
export const ERROR_TYPES = [
  'BAD_PASSWORD',
  /**
   * session/login: the password was right and a two-factor code is due; call again with `otp` (a code
   * from the authenticator or a recovery code).
   */
  'MFA_REQUIRED',
  /**
   * session/login: the password was right, the user's account requires two-factor codes and the user
   * has none yet. Data: the secret to enrol (`secret`, `otpauth_uri`, `qr_svg`); the call again with
   * `otp` from the authenticator enables it and signs in.
   */
  'MFA_ENROLMENT_REQUIRED',
  /** session/login with a wrong, used or expired two-factor code (counted as a failed sign-in). */
  'BAD_OTP',
  /**
   * session/login with a right password of a member of an account that requires single sign-on
   * (its break-glass admin excepted). Data: `account_id` and `provider` (the name the sign-in page
   * shows); sign in through session/sso/start.
   */
  'SSO_REQUIRED',
  'INVALID_PASSWORD',
  'INVALID_TIME_ZONE',
  'NOT_MEMBER',
  'NOT_PERMITTED',
  'NOT_FOUND',
  'MISSING_FIELDS',
  'INVALID_FIELD',
  'EXPIRED',
  'LOCKED',
  'RATE_LIMITED',
  'NAMESPACE_NOT_FOUND',
  'STUDY_SET_PARAMS_EMPTY',
  'STUDY_SET_PARAMS_UUID_NOT_FOUND',
  'FILE_CONTENT_EMPTY',
  'FILE_TOO_LARGE',
  /** 413: a compressed (deflated) file that inflates past the server's ceiling; nothing is stored. */
  'DECOMPRESSION_LIMIT',
  'INVALID_DICOM',
  /**
   * A Study, Series or SOP Instance UID that is not a PS3.5 UID (digits and dots, no zero-led
   * component, at most 64 characters); sub-type: the attribute's keyword. Nothing is stored.
   */
  'INVALID_UID',
  'INVALID_FILE_TYPE',
  'INVALID_FILE_CONTENT',
  /** A video the non-DICOM upload cannot store: not H.264, or a profile/level DICOM does not define. */
  'UNSUPPORTED_VIDEO_CODEC',
  'TAG_NOT_FOUND',
  'DICOM_UPLOAD_FAILD',
  'NO_LINK_ERROR',
  'UPLOAD_OFFSET_MISMATCH',
  'UPLOAD_INCOMPLETE',
  'UPLOAD_QUOTA_EXCEEDED',
  /** 409: another request is appending at this offset of the upload session right now. */
  'UPLOAD_CHUNK_IN_PROGRESS',
  /** The upload session holds the start of a different file: start this one over. */
  'UPLOAD_RESUME_MISMATCH',
  'USER_INFO_NOT_SET',
  'NO_SUITABLE_ACCOUNT',
  /** study/send/cancel of a send that already ran. */
  'ALREADY_SENT',
  /** study/push while a push of that study to that destination is still queued or sending. */
  'PENDING',
  /** Removing, disabling or demoting the account's last enabled admin: the account would have none. */
  'LAST_ADMIN',
  /** study/nominate of a study already nominated to that gatekeeper group (and not cancelled). */
  'ALREADY_NOMINATED',
  /** study/process or study/reject of a nomination already processed or rejected. */
  'ALREADY_PROCESSED',
  /**
   * study/process: the destination already holds this Study Instance UID under another patient, so
   * sending would merge two patients' images there; nothing was changed or sent.
   */
  'STUDY_UID_CONFLICT',
  /**
   * study/process: a destination that takes searches could not be asked whether it already holds
   * the study (no DICOM answer, or a failure status), so nothing was changed or sent. Data: the
   * destination's `destination_id` and `destination_name`, and the `status` it answered (4 hex
   * digits) or null when it gave no DICOM answer (the reason why goes to the server log only).
   */
  'DESTINATION_CHECK_FAILED',
  /**
   * Deleting what others still use: a role members hold, a group a DICOM sender or connection
   * delivers to, a de-identification profile something applies (sub-type: which; for `anonymization`
   * the data is `{ uses: AnonymizationProfileUse[] }`).
   */
  'IN_USE',
  /** group/delete of a group that still holds studies (deleted ones awaiting purge included). */
  'NOT_EMPTY',
  /** namespace/settings: a setting this product does not keep per namespace (sub-type: its name). */
  'INVALID_SETTING',
  /** namespace/settings: a value the setting does not take (sub-type: the setting's name). */
  'INVALID_SETTING_VALUE',
  'INTERNAL',
] as const;
export type ErrorType = (typeof ERROR_TYPES)[number];

/** The error_data of DESTINATION_CHECK_FAILED. */
export interface DestinationCheckFailedData {
  destination_id: string;
  destination_name: string;
  /** The DIMSE status the destination answered (4 hex digits), or null: it gave no DICOM answer. */
  status: string | null;
}

export interface ApiErrorBody {
  status: 'ERROR';
  error_type: ErrorType;
  error_subtype?: string | null;
  error_data?: unknown;
}

export interface ApiOk {
  status: 'OK';
}
