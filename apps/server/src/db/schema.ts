import type {
  DestinationSearchResult,
  DestinationWorklistItem,
  GroupType,
  SendStatus,
  SentItem,
} from '@imaging-inbox/contract';
import type { Generated } from 'kysely';

/**
 * Table shapes as Kysely sees them. Times are epoch milliseconds (integers sort and compare the
 * same on SQLite and PostgreSQL); booleans are 0/1 integers; JSON is stored as text.
 */
export interface AccountTable {
  uuid: string;
  name: string;
  namespace_id: string;
  vanity: string | null;
  share_code: string | null;
  created: number;
}

export interface NamespaceTable {
  id: string;
  account_id: string;
  /** ACCOUNT for the account's own namespace, else the group type. */
  kind: string;
  name: string;
  /** The user a personal namespace (kind USER) belongs to; null for account and group namespaces. */
  owner_user_id: string | null;
  /** Code outsiders send to (unique when set) and what it tells them about the receiver. */
  share_code: string | null;
  share_description: string | null;
}

/**
 * Every share code and who owns it (the account, or the namespace a send by it reaches): `code` is
 * the normalised code (trimmed, upper case) and the primary key, so a code has one owner in any case.
 */
export interface ShareCodeTable {
  code: string;
  account_id: string;
  /** null for the account's own code. */
  namespace_id: string | null;
}

export interface GroupTable {
  uuid: string;
  account_id: string;
  namespace_id: string;
  name: string;
  type: GroupType;
  created: number;
}

export interface UserTable {
  uuid: string;
  email: string;
  name: string;
  first_name: string;
  last_name: string;
  password_hash: string;
  /** JSON array of the previous password hashes, newest first (password reuse rule). */
  password_history: string;
  sysadmin: number;
  support: number;
  status: string;
  /** The account the identity (name, password, enabled) belongs to: the one that created it (decision 0052). */
  home_account_id: string | null;
  time_zone: string | null;
  /** E.164 (+ and digits) or null; set on the Profile tab. */
  mobile_phone: string | null;
  /** en, fr or es chosen on the Profile; null follows the browser (contract SUPPORTED_LANGUAGES). */
  language: string | null;
  ui_json: string | null;
  created: number;
  last_login: number | null;
}

export interface AccountMemberTable {
  account_id: string;
  user_id: string;
  role: string;
  /** JSON array of granted permission names at account level (used when role_id is null). */
  permissions: string;
  /** The account role whose permissions the membership grants, read at each call. */
  role_id: string | null;
  /** 1 until the person accepts an invitation from an account that is not their home: grants nothing (decision 0052). */
  invited: Generated<number>;
  /** 1 once the account suspended the membership: grants nothing in this account, the person is untouched. */
  suspended: Generated<number>;
  /** The name the inviter typed, shown to the account while the invitation is pending. */
  invited_name: string | null;
}

export interface GroupMemberTable {
  group_id: string;
  user_id: string;
  /** JSON array of granted permission names in this group (used when role_id is null). */
  permissions: string;
  /** The account role whose permissions the membership grants in this group, read at each call. */
  role_id: string | null;
}

/** A named permission set of an account (role/*). */
export interface RoleTable {
  uuid: string;
  account_id: string;
  name: string;
  /** JSON array of permission names. */
  permissions: string;
  created: number;
}

export interface SessionTable {
  /** SHA-256 of the sid: a leaked database does not hand out live sessions. */
  sid_hash: string;
  user_id: string;
  created: number;
  last_seen: number;
  expires: number;
  ip: string | null;
}

export interface AuthFailureTable {
  id: Generated<number>;
  /** `login:<email>` or `ip:<address>` */
  key: string;
  at: number;
}

export interface PasswordResetTable {
  token_hash: string;
  user_id: string;
  expires: number;
  used: number | null;
}

/** A user's TOTP secret (two-factor sign-in codes); `enabled` stays null until a first code is proven. */
export interface UserTotpTable {
  user_id: string;
  secret: string;
  enabled: number | null;
  /** The newest 30-second step a code was accepted for: that code and older ones are refused. */
  last_step: number | null;
  created: number;
}

/** A single-use recovery code of a user's two-factor sign-in, by its SHA-256 only. */
export interface UserRecoveryCodeTable {
  user_id: string;
  code_hash: string;
  used: number | null;
}

export interface SettingTable {
  /** `user:<uuid>` or `account:<uuid>` */
  owner: string;
  key: string;
  value: string;
}

export interface StudyTable {
  uuid: string;
  account_id: string;
  namespace_id: string;
  study_uid: string;
  patient_name: string;
  /** Upper-cased patient name: the search key, so case-insensitive search uses a plain index. */
  patient_name_key: string;
  patientid: string;
  patientid_key: string;
  patient_sex: string;
  patient_birth_date: string;
  patient_age: string;
  accession_number: string;
  study_description: string;
  study_description_key: string;
  study_date: string;
  study_time: string;
  /** All modalities of the study, backslash-joined as DICOM's ModalitiesInStudy. */
  modality: string;
  /** The same set as a bit mask (contract modality-bits.ts), for fast modality filters. */
  modality_bits: Generated<number>;
  referring_physician: string;
  referring_physician_key: string;
  source_ae_title: string;
  destination_ae_title: string;
  institution_name: string;
  image_count: Generated<number>;
  series_count: Generated<number>;
  attachment_count: Generated<number>;
  size: Generated<number>;
  star: Generated<number>;
  thin: Generated<number>;
  is_locked: Generated<number>;
  locked_by: string | null;
  /** When the holder took or last renewed the lock (ms); it lapses LOCK_TTL_MS later. */
  locked_at: number | null;
  must_approve: Generated<number>;
  study_status: string;
  push_status: string | null;
  source: string | null;
  share_message: string | null;
  shared_from: string | null;
  direct_share_count: Generated<number>;
  deleted: number | null;
  created: number;
  updated: number;
}

/**
 * Studies counted per namespace, trash or not (0/1), status, modality mask and slot, by month
 * (`month`: the first six digits of a calendar study date, six digits and a day 01 to 31, else '')
 * and by study date; kept by triggers on studies (migrations 20261129T0100 and T0101, decision 0046).
 */
export interface StudyCountByMonthTable {
  namespace_id: string;
  deleted: number;
  month: string;
  study_status: string;
  modality_bits: number;
  slot: number;
  n: number;
}

/** Studies per namespace, trash, status and modality mask, with no date (migration 20261203T0700). */
export type StudyCountTotalTable = Omit<StudyCountByMonthTable, 'month'>;

export interface StudyCountByDayTable extends StudyCountByMonthTable {
  study_date: string;
}

export interface StudyModalityTable {
  study_uuid: string;
  modality: string;
}

export interface StudyTagTable {
  study_uuid: string;
  tag: string;
}

export interface StudyCustomFieldTable {
  study_uuid: string;
  name: string;
  value: string | null;
}

/** A custom field definition of an account; `options` is JSON `[{value, field_label}]`. */
export interface CustomFieldTable {
  uuid: string;
  account_id: string;
  object: string;
  name: string;
  type: string;
  required: number;
  options: string;
  display_order: number;
  created: number;
}

export interface SeriesTable {
  uuid: string;
  study_uuid: string;
  series_uid: string;
  modality: string;
  series_number: number | null;
  series_description: string;
  body_part: string;
  image_count: number;
  size: number;
}

export interface InstanceTable {
  uuid: string;
  study_uuid: string;
  series_uuid: string;
  sop_instance_uid: string;
  sop_class_uid: string;
  instance_number: number | null;
  transfer_syntax: string;
  rows: number | null;
  columns: number | null;
  frames: number | null;
  blob_key: string;
  size: number;
  sha256: string;
  created: number;
}

export interface AuditEventTable {
  id: Generated<number>;
  at: number;
  user_id: string | null;
  account_id: string | null;
  action: string;
  object_type: string;
  object_id: string | null;
  outcome: string;
  detail: string | null;
  ip: string | null;
}

export interface OutboxTable {
  id: Generated<number>;
  to_address: string;
  subject: string;
  body: string;
  created: number;
  sent: number | null;
  /** queued → sent | failed; local: no SMTP server is configured, the row is the mail. */
  state: Generated<'queued' | 'sent' | 'failed' | 'local'>;
  /** What the mail is about (password_reset, request_link, share, send_link, …), for the record. */
  kind: string | null;
  attempts: Generated<number>;
  last_error: string | null;
}

/** A stored file to remove once its grace period is over (BlobCollector). */
export interface BlobRemovalTable {
  blob_key: string;
  due: number;
}

export interface JobTable {
  id: Generated<number>;
  kind: string;
  payload: string;
  status: string;
  attempts: number;
  run_at: number;
  locked_until: number | null;
  /** The run holding it (`<PROCESS_ID>/<run id>`): its runner, or the call finishing its work; null when none. */
  locked_by: string | null;
  last_error: string | null;
  dedupe_key: string | null;
  /** Jobs of one key (e.g. `push:<destination uuid>`) run at most concurrency_cap at a time. */
  concurrency_key: string | null;
  concurrency_cap: number | null;
  created: number;
  updated: number;
}

/** A registered DICOM sender: associations from this AE title and host deliver into the group. */
/** Another AE title of our own listener, feeding one group (see the local-ae-titles migration). */
export interface LocalAeTitleTable {
  ae_title: string;
  account_id: string;
  group_uuid: string;
  name: string;
  created: number;
}

/** An AE title we call PACS destinations as: an account's (destination_id null) or one destination's. */
export interface CallingAeTitleTable {
  /** The title trimmed and upper-cased: unique server-wide. */
  ae_key: string;
  ae_title: string;
  account_id: string;
  destination_id: string | null;
  created: number;
}

export interface DicomNodeTable {
  uuid: string;
  account_id: string;
  /** Unique over all accounts: the calling AE title is what identifies the sender. */
  ae_title: string;
  /** IP address the association must come from; `*` accepts any. */
  host: string;
  /** Where its instances go; null for a destination's PACS, whose deliveries follow their C-MOVE. */
  group_uuid: string | null;
  name: string;
  created: number;
  /** The destination this sender was registered for (deleted with it). */
  destination_id: string | null;
  /** JSON array of the uuids of the groups it may query (C-FIND); '[]': none (decision 0061). */
  query_groups: Generated<string>;
  /** 1: it may retrieve (C-MOVE, C-GET) what it may query. */
  may_retrieve: Generated<number>;
  /** The port it listens on as a C-MOVE destination (at `host`); null: not one. */
  port: number | null;
}

/** An HL7 sender an account accepts messages from (decision 0056). */
export interface Hl7SenderTable {
  uuid: string;
  account_id: string;
  name: string;
  /** The IP address its connections come from. */
  host: string;
  /** MSH-4 as typed, and trimmed and upper-cased (what a message is compared with). */
  facility: string;
  facility_key: string;
  /** MSH-3 as typed (null: any application), and its key ('' for any). */
  application: string | null;
  application_key: string;
  created: number;
}

/** A de-identification profile of an account (decision 0067; see the anonymization-profiles migration). */
export interface AnonymizationProfileTable {
  uuid: string;
  account_id: string;
  name: string;
  /** JSON array of the Annex E options chosen. */
  options: string;
  /** JSON array of per-field rules. */
  rules: string;
  keep_burned_in: Generated<number>;
  keep_attachments: Generated<number>;
  /** JSON array of the uuids of the groups whose shares are de-identified by this profile. */
  groups: Generated<string>;
  created: number;
  updated: number;
}

/** A C-FIND of a destination run as a job (see the destination-searches migration). */
export interface DestinationSearchTable {
  uuid: string;
  destination_id: string;
  account_id: string;
  namespace_id: string;
  user_id: string;
  /** `study` (destination/search) or `mwl` (destination/search/mwl, a Modality Worklist C-FIND). */
  kind: Generated<string>;
  query: string;
  state: string;
  reason: string | null;
  truncated: Generated<number>;
  created: number;
  updated: number;
}

/** A found study as the contract answers it, plus the search it belongs to and its place in the answer. */
export type DestinationSearchResultTable = DestinationSearchResult & {
  search_id: string;
  seq: number;
};

/** A scheduled procedure step a worklist search found, as the contract answers it, in its place. */
export type DestinationWorklistItemTable = DestinationWorklistItem & {
  search_id: string;
  seq: number;
};

/** A C-MOVE of one found study into the search's group (see the destination-retrieves migration). */
export interface DestinationRetrieveTable {
  uuid: string;
  search_id: string;
  destination_id: string;
  account_id: string;
  namespace_id: string;
  user_id: string;
  study_uid: string;
  state: string;
  reason: string | null;
  move_message_id: number | null;
  completed: number | null;
  failed: number | null;
  remaining: number | null;
  received: Generated<number>;
  created: number;
  updated: number;
}

/** One attempt to push a study to a destination (see the study-pushes migration). */
export interface StudyPushTable {
  uuid: string;
  study_uuid: string;
  account_id: string;
  destination_id: string;
  destination_name: string;
  user_id: string;
  status: string;
  reason: string | null;
  image_count: number;
  created: number;
  updated: number;
  /** The de-identification profile the attempt applies (decision 0071), its name as it was; null: none. */
  anonymization_id: string | null;
  anonymization_name: string | null;
}

export interface StudyPushInstanceTable {
  push_id: string;
  sop_instance_uid: string;
  blob_key: string;
  sop_class_uid: string;
  transfer_syntax: string;
  state: string;
  reason: string | null;
  tries: Generated<number>;
  /** The SOP Instance UID the PACS received when the push de-identified it; null: as stored. */
  sent_uid: string | null;
}

/** A PACS-like destination (see the destinations migration). */
export interface DestinationTable {
  uuid: string;
  account_id: string;
  /** 1: associations run over TLS (decision 0065); the PEM texts below, null when not set. */
  tls: Generated<number>;
  tls_ca: string | null;
  tls_cert: string | null;
  /** The client private key: written by destination/add|set, never answered. */
  tls_key: string | null;
  name: string;
  aetitle: string;
  address: string;
  port: number;
  can_search: number;
  can_search_mwl: number;
  can_push: number;
  c_echo_interval: number | null;
  last_echo_ok: number | null;
  last_echo_ms: number | null;
  last_echo_reason: string | null;
  last_echo_at: number | null;
  created: number;
  updated: number;
  /** 1: a system administrator let other accounts register this same PACS target. */
  shared_target: Generated<number>;
  /** 1: a push ends S only once the PACS reported every instance committed (decision 0064). */
  storage_commitment: Generated<number>;
  /** Seconds to wait for the commitment report; null: STORAGE_COMMITMENT_TIMEOUT_S. */
  storage_commitment_timeout: number | null;
  /** The de-identification profile of the account every push to it applies (decision 0071); null: none. */
  anonymization_id: string | null;
}

/** A storage commitment a push asked of its PACS (see the storage-commitment migration). */
export interface StorageCommitmentTable {
  transaction_uid: string;
  push_id: string;
  destination_id: string;
  /** waiting, committed, failed, expired. */
  state: string;
  requested: number;
  acknowledged: number | null;
  deadline: number;
  reported: number | null;
}

/** A group's gatekeeper-workflow configuration (JSON, the contract's schema of its type). */
export interface GroupConfigTable {
  group_id: string;
  account_id: string;
  config: string;
  updated: number;
}

/** A nomination of a study to a gatekeeper group (see the nominations migration). */
export interface NominationTable {
  uuid: string;
  study_uuid: string;
  account_id: string;
  gatekeeper_id: string;
  gatekeeper_name: string;
  source: string;
  copy_uuid: string | null;
  submitted: number;
  rejected: Generated<number>;
  rejection_reason: string | null;
  rejection_message: string | null;
  /** JSON object of the form's answers by field name. */
  answers: string;
  nominated_by: string;
  created: number;
  updated: number;
  /** JSON of what study/process was asked (ProcessIntent), set when the call is accepted. */
  process: string | null;
  processed_by: string | null;
  /** When the push was queued (the nomination left Nominations). */
  processed_at: number | null;
}

/** An account's order (see the orders migration). */
export interface OrderTable {
  uuid: string;
  account_id: string;
  accession_number: string;
  patient_name: string;
  /** The patient name upper-cased, for case-blind LIKE. */
  patient_name_key: string;
  patientid: string;
  patient_birth_date: string;
  patient_sex: string;
  requested_procedure: string;
  modality: string;
  scheduled_date: string;
  referring_physician: string;
  status: string;
  source: string;
  created: number;
  updated: number;
}

/** A report result received over HL7 (see the hl7-results migration). */
export interface Hl7ResultTable {
  uuid: string;
  account_id: string;
  accession_number: string;
  /** The filler's order number (OBR-3), else the placer's, else the accession number. */
  result_id: string;
  /** 'Preliminary' or 'Final'. */
  status: string;
  author: string;
  observed: number | null;
  title: string;
  text: string;
  control_id: string;
  created: number;
  updated: number;
}

/** A request-study link; the token itself is never stored, only its SHA-256. */
export interface LinkTable {
  uuid: string;
  token_hash: string;
  account_id: string;
  namespace_id: string;
  created_by: string;
  /** STUDY_UPLOAD */
  action: string;
  email: string;
  message: string | null;
  password_hash: string | null;
  max_hits: number;
  /** Upload sessions opened so far (one per grant). */
  hits: Generated<number>;
  minutes_alive: number;
  notify_on_use: number;
  created: number;
  expires: number;
  revoked: number | null;
  /** Whom the request is for, in international form; kept and shown (no text message is sent). */
  mobile_phone: string | null;
  /** The share message of every study uploaded through the link. */
  share_description: string | null;
  /** The de-identification profile applied to what is uploaded through it (decision 0071); null: none. */
  anonymization_id: string | null;
}

/** A short-lived upload grant handed out by link/public/unlock; stored hashed. */
export interface LinkGrantTable {
  grant_hash: string;
  link_uuid: string;
  created: number;
  expires: number;
  ip: string | null;
}

/** A share of a study with a user or a group of its own account (migration study-shares). */
export interface StudyShareTable {
  uuid: string;
  study_uuid: string;
  account_id: string;
  /** user or group */
  target_type: string;
  /** users.uuid or groups.uuid */
  target_id: string;
  /** The copy of the study in the target group's or the recipient's personal namespace. */
  copy_uuid: string | null;
  message: string | null;
  created_by: string;
  created: number;
}

/** A resumable upload of one file (migration upload-sessions); its bytes live in DATA_DIR/uploads. */
export interface UploadSessionTable {
  id_hash: string;
  /** `session:<sid hash>` or `grant:<grant hash>`: only that caller reaches the session. */
  owner: string;
  account_id: string;
  namespace_id: string;
  /** The ingest source kind: upload or link. */
  source: string;
  user_id: string | null;
  size: number;
  received: number;
  created: number;
  expires: number;
  /** The upload answer (JSON) once the file was ingested; complete answers it again. */
  answer: string | null;
  /** Token of the append in progress (compare-and-set), null when none. */
  claim: string | null;
  /** When that claim lapses if its process died (ms). */
  claim_expires: number | null;
  /** SHA-256 (hex) of the file's first min(size, UPLOAD_RESUME_HEAD_BYTES) bytes, when declared. */
  head_sha256: string | null;
}

/** A short-lived credential opening one study to the embedded viewer (hash of the token only). */
export interface ViewerTokenTable {
  token_hash: string;
  user_id: string;
  /** The session that asked for it: the token dies with that session. */
  sid_hash: string;
  namespace_id: string;
  study_uid: string;
  created: number;
  expires: number;
}

/** Which events a user is mailed about in one namespace (0/1 flags; no row = all off). */
export interface UserEventTable {
  user_id: string;
  namespace_id: string;
  event_share: number;
  event_harvest: number;
  event_nominate: Generated<number>;
  updated: number;
}

/** A study received from a DICOM sender whose harvest mail is pending (migration harvest-notices). */
export interface HarvestNoticeTable {
  study_uuid: string;
  account_id: string;
  namespace_id: string;
  source_ae_title: string;
  created: number;
  /** When to look at the study again: once it has been quiet, its mail is sent. */
  due_at: number;
  attempts: Generated<number>;
}

/** Another account this account sends studies to, received in target_namespace_id. */
export interface ConnectionTable {
  uuid: string;
  account_id: string;
  name: string;
  target_account_id: string;
  target_namespace_id: string;
  created: number;
}

/** One send of a study (migration study-sends). */
export interface StudySendTable {
  uuid: string;
  study_uuid: string;
  account_id: string;
  /** account (a connection), share_code or email */
  method: SentItem['method'];
  target_namespace_id: string | null;
  connection_id: string | null;
  email: string | null;
  message: string | null;
  /** scheduled, sent, cancelled or failed */
  status: SendStatus;
  run_at: number;
  job_id: number | null;
  copy_uuid: string | null;
  /** E-mail sends: SHA-256 of the link token, its expiry, and of the pending one-time code. */
  token_hash: string | null;
  expires: number | null;
  code_hash: string | null;
  code_expires: number | null;
  created_by: string;
  created: number;
  updated: number;
}

export interface SendGrantTable {
  grant_hash: string;
  send_uuid: string;
  created: number;
  expires: number;
  ip: string | null;
}

/** One version of a file attached to a study (migration attachments, 20261122T1662). */
export interface AttachmentTable {
  /** Shared by every version of one file name in the study. */
  id: string;
  version: number;
  study_uuid: string;
  filename: string;
  mime: string;
  size: number;
  sha256: string;
  blob_key: string;
  created_by: string | null;
  created: number;
}

export interface RoutingRuleTable {
  uuid: string;
  account_id: string;
  sequence: number;
  name: string;
  /** group or sender; null: every study of the account. */
  for_type: string | null;
  for_id: string | null;
  /** JSON array of RouteEvent. */
  events: string;
  match: string;
  /** JSON array of RouteCondition. */
  conditions: string;
  /** JSON array of RouteAction. */
  actions: string;
  disabled: number;
  created_by: string;
  created: number;
  updated: number;
}

export interface WebhookTable {
  uuid: string;
  account_id: string;
  name: string;
  url: string;
  method: string;
  /** JSON array of WebhookEvent. */
  events: string;
  secret: string;
  disabled: number;
  created_by: string;
  created: number;
  updated: number;
}

export interface WebhookDeliveryTable {
  uuid: string;
  webhook_id: string;
  account_id: string;
  event: string;
  study_uuid: string | null;
  /** The JSON body, signed afresh at each attempt. */
  payload: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  last_error: string | null;
  created: number;
  updated: number;
}

/** An account's wording of one label in one language (label/set); key is the English original. */
export interface LabelOverrideTable {
  account_id: string;
  language: string;
  key: string;
  text: string;
  updated_by: string;
  updated: number;
}

/** An account's single sign-on provider (OpenID Connect, decision 0066); the secret is never answered. */
export interface AccountSsoTable {
  account_id: string;
  type: string;
  enabled: number;
  display_name: string;
  issuer: string;
  client_id: string;
  client_secret: string | null;
  scopes: string;
  claim_email: string;
  claim_first: string;
  claim_last: string;
  /** The claim whose values map to roles and groups (`role_map`); null: roles are the account's to give. */
  claim_roles: string | null;
  /** JSON array of { value, role_id, group_id? }. */
  role_map: string;
  /** JSON array of e-mail domains whose sign-in page goes to this provider. */
  domains: string;
  jit: number;
  default_role_id: string | null;
  require_sso: number;
  break_glass_user_id: string | null;
  updated: number;
  /** SAML (decision 0070): the identity provider's sign-on URL (HTTP-Redirect binding); null for OIDC. */
  saml_entry_point: string | null;
  /** SAML: JSON array of the identity provider's signing certificates (base64 DER). */
  saml_idp_certs: string | null;
}

/** A sign-in on its way to the provider: found by its state's SHA-256, used once. */
export interface SsoFlowTable {
  state_hash: string;
  account_id: string;
  /** SHA-256 of the cookie the browser that started it holds. */
  browser_hash: string;
  nonce: string;
  code_verifier: string;
  return_to: string;
  expires: number;
  /** SAML: the AuthnRequest's ID, which the answer's InResponseTo must name. */
  request_id: string | null;
  /** SAML: what the identity provider's valid assertion said (JSON), until the same browser signs in. */
  asserted: string | null;
  /** The client address that started it (session/sso/start's limits). */
  ip: string | null;
}

/** An accepted SAML assertion's ID, remembered until it expires so a replay is refused (decision 0070). */
export interface SamlAssertionTable {
  account_id: string;
  assertion_id: string;
  expires: number;
}

/** A provider's subject (`sub`) in an account and the person it signs in. */
export interface SsoIdentityTable {
  account_id: string;
  subject: string;
  user_id: string;
}

/** A session signed in through a provider: its ID token, the hint of RP-initiated logout. */
export interface SsoSessionTable {
  sid_hash: string;
  account_id: string;
  id_token: string;
  expires: number;
}

export interface Database {
  accounts: AccountTable;
  namespaces: NamespaceTable;
  share_codes: ShareCodeTable;
  groups: GroupTable;
  users: UserTable;
  account_members: AccountMemberTable;
  group_members: GroupMemberTable;
  roles: RoleTable;
  sessions: SessionTable;
  auth_failures: AuthFailureTable;
  password_resets: PasswordResetTable;
  user_totp: UserTotpTable;
  user_recovery_codes: UserRecoveryCodeTable;
  account_sso: AccountSsoTable;
  sso_flows: SsoFlowTable;
  sso_sessions: SsoSessionTable;
  sso_identities: SsoIdentityTable;
  saml_assertions: SamlAssertionTable;
  settings: SettingTable;
  studies: StudyTable;
  study_modalities: StudyModalityTable;
  study_counts_by_month: StudyCountByMonthTable;
  study_counts_by_day: StudyCountByDayTable;
  study_count_totals: StudyCountTotalTable;
  study_tags: StudyTagTable;
  study_customfields: StudyCustomFieldTable;
  custom_fields: CustomFieldTable;
  series: SeriesTable;
  instances: InstanceTable;
  audit_events: AuditEventTable;
  outbox: OutboxTable;
  jobs: JobTable;
  blob_removals: BlobRemovalTable;
  dicom_nodes: DicomNodeTable;
  hl7_senders: Hl7SenderTable;
  anonymization_profiles: AnonymizationProfileTable;
  local_ae_titles: LocalAeTitleTable;
  calling_ae_titles: CallingAeTitleTable;
  destinations: DestinationTable;
  group_configs: GroupConfigTable;
  nominations: NominationTable;
  orders: OrderTable;
  hl7_results: Hl7ResultTable;
  destination_searches: DestinationSearchTable;
  destination_search_results: DestinationSearchResultTable;
  destination_worklist_items: DestinationWorklistItemTable;
  destination_retrieves: DestinationRetrieveTable;
  study_pushes: StudyPushTable;
  study_push_instances: StudyPushInstanceTable;
  storage_commitments: StorageCommitmentTable;
  study_shares: StudyShareTable;
  attachments: AttachmentTable;
  links: LinkTable;
  link_grants: LinkGrantTable;
  upload_sessions: UploadSessionTable;
  viewer_tokens: ViewerTokenTable;
  user_events: UserEventTable;
  harvest_notices: HarvestNoticeTable;
  connections: ConnectionTable;
  study_sends: StudySendTable;
  send_grants: SendGrantTable;
  routing_rules: RoutingRuleTable;
  webhooks: WebhookTable;
  webhook_deliveries: WebhookDeliveryTable;
  label_overrides: LabelOverrideTable;
}
