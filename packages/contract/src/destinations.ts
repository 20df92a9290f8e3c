import type { AnswerPage } from './api-params.js';
import type { StudyPushStatus } from './study-search.js';

/**
 * The one reason an account is given when a destination could not be reached or would not associate
 * (echo, search, retrieve, push): it tells nothing of what was at the port (decision 0054).
 */
export const NO_DICOM_ANSWER = 'no DICOM answer';

/** The last C-ECHO of a destination: ok with its round trip, or the reason it failed. */
export interface EchoResult {
  ok: boolean;
  /** Round trip of the association and C-ECHO, in milliseconds (null when it failed). */
  ms: number | null;
  reason: string | null;
  /** When it was tried (ms since the epoch). */
  at: number;
}

/** A PACS-like peer we query, retrieve from and push to, as destination/* answers it. */
export interface Destination {
  uuid: string;
  account_id: string;
  name: string;
  /** 1: associations with it run over TLS 1.2+ (decision 0065). */
  tls: 0 | 1;
  /**
   * The PEM CA certificate(s) and client certificate set for its TLS, answered only to the account's
   * admins (null to anyone else, and when none is set). The private key is never answered.
   */
  tls_ca: string | null;
  tls_cert: string | null;
  /** 1: a client private key is stored (its text is never answered). */
  tls_key_set: 0 | 1;
  /** Its called AE title. */
  aetitle: string;
  /** IP address or host name of its DICOM port. */
  address: string;
  port: number;
  can_search: 0 | 1;
  can_search_mwl: 0 | 1;
  can_push: 0 | 1;
  /** Seconds between automatic C-ECHOs; null: never. */
  c_echo_interval: number | null;
  last_echo: EchoResult | null;
  /** The AE title this destination is called as when it has its own; null: its account's. */
  calling_aet: string | null;
  /** 1: a system administrator let other accounts register this same PACS target. */
  shared_target: 0 | 1;
  /**
   * 1: a push ends S only once the PACS reported every instance committed (Storage Commitment Push
   * Model, decision 0064); instances it reports failed end the push F.
   */
  storage_commitment: 0 | 1;
  /** Seconds to wait for the commitment report; null: the server's default (STORAGE_COMMITMENT_TIMEOUT_S). */
  storage_commitment_timeout: number | null;
  /**
   * A de-identification profile of the account every push to it applies (decision 0071): the PACS
   * receives de-identified copies; null: pushes send the stored files as they are.
   */
  anonymization_id: string | null;
  created: number;
  updated: number;
}

/** study/push/list: the push attempts of a study, newest first. */
export interface StudyPushListAnswer {
  status: 'OK';
  pushes: StudyPushAttempt[];
  page: AnswerPage;
}

export const DESTINATION_NAME_MAX_LENGTH = 100;
export const DESTINATION_ADDRESS_MAX_LENGTH = 253;
/** Longest PEM text (CA bundle, certificate, key) a destination's TLS settings take, in characters. */
export const DESTINATION_TLS_PEM_MAX_LENGTH = 65_536;
/** Longest automatic C-ECHO interval (a day), in seconds. */
export const DESTINATION_ECHO_INTERVAL_MAX = 86_400;
/** Bounds of a destination's storage commitment timeout, in seconds (a day at most). */
export const STORAGE_COMMITMENT_TIMEOUT_MIN = 1;
export const STORAGE_COMMITMENT_TIMEOUT_MAX = 86_400;

/** A study a destination search found (SPEC.md section 4). */
export interface DestinationSearchResult {
  study_uid: string;
  patient_name: string;
  patient_birth_date: string;
  patient_sex: string;
  patientid: string;
  accession_number: string;
  study_date: string;
  study_description: string;
  modality: string;
  source_ae: string;
}

export type DestinationJobState = 'running' | 'done' | 'failed';

/** A C-MOVE of one found study into the search's group. */
export interface DestinationRetrieve {
  uuid: string;
  study_uid: string;
  state: DestinationJobState;
  reason: string | null;
  completed: number;
  failed: number;
  remaining: number | null;
  created: number;
  updated: number;
}

/** destination/search/get: the search's state, what it found so far and the retrieves started from it. */
export interface DestinationSearch {
  uuid: string;
  destination_id: string;
  /** A study search (destination/search); every answer carries it, objects built by hand may leave it out. */
  kind?: 'study';
  state: DestinationJobState;
  reason: string | null;
  results: DestinationSearchResult[];
  retrieves: DestinationRetrieve[];
}

/** One scheduled procedure step a worklist search (destination/search/mwl) found. */
export interface DestinationWorklistItem {
  accession_number: string;
  patient_name: string;
  patientid: string;
  patient_birth_date: string;
  patient_sex: string;
  referring_physician: string;
  /** Requested Procedure ID (0040,1001): what destination/search/mwl's order_number matches. */
  order_number: string;
  /** Requested Procedure Description (0032,1060), else the step's description. */
  requested_procedure: string;
  /** The Study Instance UID the order's images are to carry ('' when the worklist gives none). */
  study_uid: string;
  modality: string;
  /** DICOM `YYYYMMDD` and `HHMMSS` as the worklist gives them. */
  scheduled_date: string;
  scheduled_time: string;
  scheduled_station_ae: string;
}

/** destination/search/get of a worklist search: its state and the items found (at most WORKLIST_SEARCH_CAP). */
export interface DestinationWorklistSearch {
  uuid: string;
  destination_id: string;
  kind: 'mwl';
  state: DestinationJobState;
  reason: string | null;
  /** More items matched than one search keeps: the C-FIND was cancelled at the cap. */
  truncated: boolean;
  items: DestinationWorklistItem[];
}

/**
 * The study search of a destination/search/get answer. A screen polls the kind of search it
 * started; a worklist search's uuid there is a programming error, not a state to show.
 */
export function studySearchOf<T extends DestinationSearch | DestinationWorklistSearch>(
  search: T,
): Exclude<T, DestinationWorklistSearch> {
  if (search.kind === 'mwl') throw new Error(`search ${search.uuid} is a worklist search`);
  return search as Exclude<T, DestinationWorklistSearch>;
}

/** The most items one worklist search keeps; past it the C-FIND is cancelled and the search says so. */
export const WORKLIST_SEARCH_CAP = 200;

/**
 * Push status codes: I queued, N sending, S every instance stored, P partial (some instances still
 * refused after the retries), F failed (nothing stored, or the destination could not be reached).
 */
export type PushStatus = Exclude<StudyPushStatus, 'R'>;

/** One attempt to push a study to a destination, as study_push_status lists it. */
export interface StudyPushAttempt {
  uuid: string;
  destination_id: string;
  destination_name: string;
  status: PushStatus;
  reason: string | null;
  image_count: number;
  images_sent: number;
  images_failed: number;
  /**
   * The de-identification profile the attempt applied (its name when the push was queued) and how
   * many instances it left out because they may show burned-in text (decision 0071); absent: none.
   */
  deidentified?: { profile: string; refused_burned_in: number } | undefined;
  created: number;
  updated: number;
}
