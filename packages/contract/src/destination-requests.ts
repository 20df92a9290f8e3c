import { z } from 'zod';
import { listParam, optionalText, pageParams, rawText, reportMissing, requiredText } from './api-params.js';
import { MAX_PAGE_ROWS } from './limits.js';

/** Request schemas of PACS destinations and Retrieve Study (api-params.ts explains the codecs). */

/** destination/list: an account's destinations, optionally some of them. */
export const destinationListRequest = z.object({
  account_id: requiredText(),
  'filter.uuid.in': listParam(),
  ...pageParams(MAX_PAGE_ROWS),
});

/** The fields destination/add and destination/set take, as sent (the server checks each). */
const destinationFields = {
  /** 1: every association with this PACS runs over TLS 1.2+ (decision 0065); 0: plain TCP. */
  tls: rawText(),
  /** PEM CA certificate(s) the PACS's certificate must chain to ('' : the system's trusted roots). */
  tls_ca: rawText(),
  /** PEM client certificate we present to the PACS, with tls_key ('' on set: none). */
  tls_cert: rawText(),
  /** PEM private key (unencrypted) of tls_cert: written, never answered. */
  tls_key: rawText(),
  name: rawText(),
  aetitle: rawText(),
  address: rawText(),
  port: rawText(),
  can_search: rawText(),
  can_search_mwl: rawText(),
  /** Ambra's SDK name for can_search_mwl (either may be sent; both must then agree). */
  can_mwl_search: rawText(),
  can_push: rawText(),
  c_echo_interval: rawText(),
  /** The AE title to call this destination as, instead of the account's ('' for the account's). */
  calling_aet: rawText(),
  /** 1 lets other accounts register the same PACS target: a system administrator's alone. */
  shared_target: rawText(),
  /** 1: pushes ask the PACS for storage commitment and end S only once every instance is committed. */
  storage_commitment: rawText(),
  /** Seconds to wait for the commitment report ('' or 0: the server's default). */
  storage_commitment_timeout: rawText(),
  /** A de-identification profile of the account every push to it applies ('' on set: none; decision 0071). */
  anonymization_id: rawText(),
};

export const destinationAddRequest = z.object({ account_id: requiredText(), ...destinationFields });
export const destinationSetRequest = z.object({ uuid: requiredText(), ...destinationFields });

/** destination/search: C-FIND a destination for studies to copy into a group (copy_to). */
export const destinationSearchRequest = z.object({
  uuid: requiredText(),
  copy_to: requiredText(),
  patient_name: rawText(),
  patientid: rawText(),
  accession_number: rawText(),
  modality: rawText(),
  query_fields: rawText(),
  start_datetime: rawText(),
  end_datetime: rawText(),
});

/**
 * destination/search/mwl (Ambra's name and parameters): C-FIND a destination's Modality Worklist
 * for the scheduled procedure steps matching the criteria, on behalf of a study (study_id, its
 * group searches) or of a group (namespace_id). Polled with destination/search/get.
 */
export const destinationSearchMwlRequest = z.object({
  uuid: requiredText(),
  study_id: rawText(),
  namespace_id: rawText(),
  patient_name: rawText(),
  patientid: rawText(),
  accession_number: rawText(),
  patient_birth_date: rawText(),
  patient_sex: rawText(),
  /** The scheduled procedure step's start date: `YYYY-MM-DD`, `YYYYMMDD` or a range `YYYYMMDD-YYYYMMDD`. */
  order_date: rawText(),
  /** The Requested Procedure ID (0040,1001). */
  order_number: rawText(),
  modality: rawText(),
});

/**
 * destination/retrieve: C-MOVE one study a search found (`destination_search_id` and `study_uid`),
 * or, Ambra's form, every study a finished search found (`activity_id`, the search's uuid).
 */
export const destinationRetrieveRequest = z
  .object({ destination_search_id: optionalText(), study_uid: optionalText(), activity_id: optionalText() })
  .transform(({ destination_search_id, study_uid, activity_id }, ctx) => {
    // `study_uid` null: every study the search found.
    if (activity_id) return { search: activity_id, study_uid: null };
    if (destination_search_id && study_uid) return { search: destination_search_id, study_uid };
    const absent = Object.entries({ destination_search_id, study_uid }).filter(([, v]) => !v);
    return reportMissing(ctx, ...absent.map(([name]) => name));
  });

/** study/push: queue a push of a study to a destination (or the Retry of a partial one). */
export const studyPushRequest = z.object({
  uuid: requiredText(),
  destination_id: requiredText(),
  /**
   * A de-identification profile of the account to apply to this push (decision 0071); a destination
   * that names its own profile takes no other.
   */
  anonymization_id: optionalText(),
});
