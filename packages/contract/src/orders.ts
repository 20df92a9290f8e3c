import { z } from 'zod';
import type { ApiOk } from './errors.js';
import type { OrderAttributes } from './order-match.js';
import { optionalText, pageParams, reportInvalid, reportMissing, requiredText } from './api-params.js';

/**
 * Orders (SPEC.md sections 3, 5 and 7): what a gatekeeper reconciles a nominated exam with. An
 * account keeps its own orders (entered by hand, or received as HL7 ORM^O01 messages); a gatekeeper
 * group's Modality Worklist destination adds the orders it answers (C-FIND).
 */

/** Where an order came from: typed in (order/add), an HL7 ORM^O01 message, or a worklist C-FIND. */
export const ORDER_SOURCES = ['manual', 'HL7', 'MWL'] as const;
export type OrderSource = (typeof ORDER_SOURCES)[number];

/** An order's state: scheduled until the HL7 sender cancels or completes it. */
export const ORDER_STATUSES = ['SCHEDULED', 'IN_PROGRESS', 'COMPLETED', 'CANCELLED'] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The Search Order page's 'find orders of' choices (SPEC.md section 2). */
export const ORDER_SEARCH_FILTERS = ['accession_number', 'patient_name', 'patientid'] as const;
export type OrderSearchFilter = (typeof ORDER_SEARCH_FILTERS)[number];

/** The label of each 'find orders of' choice; 'Please provide a {label}' when its value is empty. */
export const ORDER_SEARCH_FILTER_LABELS: Record<OrderSearchFilter, string> = {
  accession_number: 'Accession number',
  patient_name: 'Patient name',
  patientid: 'MRN',
};

/** The Search Order page's check before searching (SPEC.md section 5): the message, or null. */
export function orderSearchProblem(filter: OrderSearchFilter, value: string): string | null {
  return value.trim() === '' ? `Please provide a ${ORDER_SEARCH_FILTER_LABELS[filter]}` : null;
}

/**
 * One order: its patient and order attributes (as DICOM holds them: names `LAST^FIRST`, dates
 * `YYYYMMDD`, sex M/F/O or ''; the web formats them for display) and where it came from.
 */
export interface Order extends OrderAttributes {
  /** The stored order's uuid; a worklist answer's is `mwl:{accession number}` (not stored). */
  uuid: string;
  account_id: string;
  status: OrderStatus;
  source: OrderSource;
  /** Epoch ms; a worklist answer's is the time of the search. */
  created: number;
  updated: number;
}

const MAX_ORDER_TEXT = 64;
const orderText = () =>
  optionalText().pipe(z.string().max(MAX_ORDER_TEXT, `at most ${MAX_ORDER_TEXT} characters`).optional());
const dicomDateParam = () =>
  optionalText().pipe(
    z
      .string()
      .regex(/^\d{8}$/, 'a date as YYYYMMDD')
      .optional(),
  );

/** order/add: an order typed in for an account (needs order_edit there). Accession number and patient name are required. */
export const orderAddRequest = z.object({
  account_id: requiredText(),
  accession_number: requiredText().pipe(z.string().max(16, 'at most 16 characters')),
  patient_name: requiredText().pipe(z.string().max(MAX_ORDER_TEXT, `at most ${MAX_ORDER_TEXT} characters`)),
  patientid: orderText(),
  patient_birth_date: dicomDateParam(),
  patient_sex: optionalText().pipe(z.enum(['M', 'F', 'O'], { error: 'M, F or O' }).optional()),
  requested_procedure: orderText(),
  modality: optionalText().pipe(
    z
      .string()
      .regex(/^[A-Z]{2,4}$/, 'a modality such as CT')
      .optional(),
  ),
  scheduled_date: dicomDateParam(),
  referring_physician: orderText(),
});
export type OrderAddRequest = z.output<typeof orderAddRequest>;

/** The one search an order/list or order/search call makes: which attribute, and its value. */
export interface OrderQuery {
  filter: OrderSearchFilter;
  /** Accession number and MRN match exactly; a patient name is a LIKE pattern (% wildcards). */
  value: string;
}

const FILTER_KEYS = {
  'filter.accession_number.equals': 'accession_number',
  'filter.patient_name.like': 'patient_name',
  'filter.patientid.equals': 'patientid',
} as const satisfies Record<string, OrderSearchFilter>;
type FilterKey = keyof typeof FILTER_KEYS;

/** Exactly one of the three filters: none is MISSING_FIELDS (naming all three), two is INVALID_FIELD. */
function exactlyOneFilter<T extends Partial<Record<FilterKey, string | undefined>>>(
  params: T,
  ctx: z.core.$RefinementCtx<unknown>,
): OrderQuery {
  const given = (Object.keys(FILTER_KEYS) as FilterKey[]).filter((key) => params[key] !== undefined);
  if (given.length === 0) return reportMissing(ctx, ...Object.keys(FILTER_KEYS));
  if (given.length > 1) return reportInvalid(ctx, given[1]!, 'give exactly one order filter');
  const key = given[0]!;
  return { filter: FILTER_KEYS[key], value: params[key]! };
}

const filterParams = {
  'filter.accession_number.equals': optionalText(),
  'filter.patient_name.like': optionalText(),
  'filter.patientid.equals': optionalText(),
};

/** order/list: an account's own orders (needs order_view there), by exactly one filter. */
export const orderListRequest = z
  .object({ account_id: requiredText(), ...filterParams, ...pageParams(50) })
  .transform((params, ctx) => ({
    accountId: params.account_id,
    query: exactlyOneFilter(params, ctx),
    page: { number: params['page.number'], rows: params['page.rows'] },
  }));
export type OrderListRequest = z.output<typeof orderListRequest>;

export interface OrderListAnswer extends ApiOk {
  orders: Order[];
  page: { number: number; rows: number; more: 0 | 1 };
}

/**
 * order/search: the Search Order step of a gatekeeper group (`group_id`, needs order_view in it):
 * the account's own orders and, when the group's promote preference is MWL, its worklist
 * destination's (C-FIND), by exactly one filter. No match is an empty list (the not-found panel);
 * NOT_PERMITTED without order_view; NOT_FOUND for a group the caller cannot see.
 */
export const orderSearchRequest = z
  .object({ group_id: requiredText(), ...filterParams })
  .transform((params, ctx) => ({ groupId: params.group_id, query: exactlyOneFilter(params, ctx) }));
export type OrderSearchRequest = z.output<typeof orderSearchRequest>;

/** How the worklist part of an order search went. */
export interface WorklistOutcome {
  /** `none`: the group has no worklist destination (preference not MWL); `failed`: see `reason`. */
  state: 'ok' | 'failed' | 'none';
  destination_id: string | null;
  destination_name: string | null;
  reason: string | null;
}

export interface OrderSearchAnswer extends ApiOk {
  /** Account orders first (newest first), then worklist orders not already among them by accession number. */
  orders: Order[];
  worklist: WorklistOutcome;
}

/**
 * study/patient/search: the Search Patient step (C-Find flow) of a nomination (`uuid`, the gatekeeper
 * group's copy): a patient-level C-FIND of the group's query destination by MRN and/or name. Answers
 * the search's uuid; poll it with destination/search/get every 1500 ms.
 */
export const studyPatientSearchRequest = z
  .object({ uuid: requiredText(), patientid: optionalText(), patient_name: optionalText() })
  .transform((params, ctx) => {
    if (!params.patientid && !params.patient_name) return reportMissing(ctx, 'patientid');
    return { uuid: params.uuid, patientid: params.patientid, patientName: params.patient_name };
  });
export type StudyPatientSearchRequest = z.output<typeof studyPatientSearchRequest>;
