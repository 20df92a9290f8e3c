/** Business constants of SPEC.md section 9, shared by server and web. */
export const STUDY_PAGE_ROWS = 50;
export const PAGE_SIZE_OPTIONS = [10, 25, 50, 100] as const;
export const MAX_PAGE_ROWS = 5000;
export const TAG_LOOKUP_ROWS = 25;
export const MEGABYTE = 1024 * 1024;
export const MAX_INT = 2147483647;
export const NAME_CUT = 25;
export const MAX_TAG_CHIPS = 3;
/** The tag selector shows this many tags, then one chip counting the rest: MAX_TAG_CHIPS in all. */
export const TAGS_SHOWN_BEFORE_COUNT = MAX_TAG_CHIPS - 1;
export const SESSION_POLL_MS = 5 * 60 * 1000;
export const SEARCH_POLL_MS = 1500;
export const DELAYED_SEND_MS = 3 * 60 * 1000;
/** Longest message a share or a send may carry (after trimming). */
export const MAX_SHARE_MESSAGE = 1024;
/** Longest value of one study search filter (`filter.*`): a name, an ID, a list of modalities or tags. */
export const MAX_FILTER_LENGTH = 1024;
/** Longest password a request-study link may be given. */
export const MAX_LINK_PASSWORD = 128;
/** Longest e-mail address (RFC 5321's path limit). */
export const MAX_EMAIL_LENGTH = 254;
export const DEBOUNCE_MS = 250;
export const LONG_DEBOUNCE_MS = 500;
export const SUCCESS_BANNER_MS = 5000;
export const ATTACHMENT_ERROR_MS = 10000;
export const SNACKBAR_MS = 4000;
export const SNACKBAR_MAX = 3;
export const REQUEST_DURATION_HINTS_MINUTES = [60, 180, 720, 1440, 2880] as const;
/** Largest single DICOM file accepted by the upload call. */
export const MAX_UPLOAD_BYTES = 2 * 1024 * 1024 * 1024;
