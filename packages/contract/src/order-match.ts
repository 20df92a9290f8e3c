/**
 * Comparing a nominated exam with orders (SPEC.md section 2, Order Comparison): the differences the
 * gatekeeper sees side by side, and the candidate orders ranked with a reason per criterion. Pure,
 * so the web (the comparison screen, the Orders tab) and the server (the history's "compared with
 * order X") judge with one copy.
 *
 * Values are as the index and a worklist hold them: names in DICOM PN form (`DOE^JANE`), dates as
 * `YYYYMMDD` (ISO `YYYY-MM-DD` is accepted too), sex M/F/O.
 */

/** An order's patient and order attributes, as study/process takes them and order/list answers them. */
export interface OrderAttributes {
  patient_name: string;
  /** The MRN. */
  patientid: string;
  patient_birth_date: string;
  patient_sex: string;
  accession_number: string;
  /** Requested Procedure Description; becomes the exam's study description. */
  requested_procedure: string;
  modality: string;
  /** The scheduled date of the order. */
  scheduled_date: string;
  referring_physician: string;
}

/**
 * The attributes an order writes into the exam when it is processed, as study/process names them:
 * patient name, MRN, birth date, sex, accession number, procedure (becomes the study description)
 * and referring physician. Modality and scheduled date are compared, never written.
 */
export const ORDER_WRITTEN_ATTRIBUTES = [
  'patient_name',
  'patientid',
  'patient_birth_date',
  'patient_sex',
  'accession_number',
  'requested_procedure',
  'referring_physician',
] as const;
export type OrderWrittenAttribute = (typeof ORDER_WRITTEN_ATTRIBUTES)[number];

/**
 * What processing with `order` writes (the Order Comparison screen's Send to PACS, and study/process
 * naming an `order_id`): each written attribute the order has, trimmed; a blank one is left out, so
 * the exam keeps its own value. One function for the web and the server.
 */
export function orderWrittenValues(
  order: Partial<Record<OrderWrittenAttribute, string | null>>,
): Partial<Record<OrderWrittenAttribute, string>> {
  const values: Partial<Record<OrderWrittenAttribute, string>> = {};
  for (const key of ORDER_WRITTEN_ATTRIBUTES) {
    const value = order[key]?.trim();
    if (value) values[key] = value;
  }
  return values;
}

/** One patient found in the exam's files (a study holding several is a warning). */
export interface ExamPatient {
  patient_name: string;
  patientid: string;
}

/** What the comparison reads of the nominated exam. */
export interface ExamDemographics {
  patient_name: string;
  patientid: string;
  patient_birth_date: string;
  patient_sex: string;
  accession_number: string;
  study_description: string;
  /** All modalities, backslash-joined (`CT\SR`) as the index keeps them. */
  modality: string;
  study_date: string;
  referring_physician: string;
  /** The distinct patients of the exam's files when known; more than one is warned about. */
  patients?: ExamPatient[];
}

export const MATCH_CRITERIA = ['mrn', 'name', 'birth_date', 'sex', 'modality', 'date'] as const;
export type MatchCriterion = (typeof MATCH_CRITERIA)[number];

/** How one criterion came out: equal, close (a name in another order, a date days apart), different, or not known on one side. */
export type MatchOutcome = 'match' | 'partial' | 'differ' | 'unknown';

export interface CriterionResult {
  criterion: MatchCriterion;
  outcome: MatchOutcome;
  /** Points this criterion adds to the order's score. */
  points: number;
  /** Why, in words the gatekeeper reads ('MRN matches', 'Birth date differs: 1970-01-02 vs 1971-01-02'). */
  reason: string;
}

/** The attributes processing writes into the exam, with the exam's and the order's values. */
export const COMPARED_ATTRIBUTES = [
  { exam: 'patient_name', order: 'patient_name', label: 'Patient name' },
  { exam: 'patientid', order: 'patientid', label: 'MRN' },
  { exam: 'patient_birth_date', order: 'patient_birth_date', label: 'Birth date' },
  { exam: 'patient_sex', order: 'patient_sex', label: 'Sex' },
  { exam: 'accession_number', order: 'accession_number', label: 'Accession number' },
  { exam: 'study_description', order: 'requested_procedure', label: 'Description' },
  { exam: 'modality', order: 'modality', label: 'Modality' },
  { exam: 'study_date', order: 'scheduled_date', label: 'Date' },
  { exam: 'referring_physician', order: 'referring_physician', label: 'Referring physician' },
] as const satisfies readonly { exam: keyof ExamDemographics; order: keyof OrderAttributes; label: string }[];

export interface AttributeComparison {
  exam_field: (typeof COMPARED_ATTRIBUTES)[number]['exam'];
  order_field: keyof OrderAttributes;
  label: string;
  exam: string;
  order: string;
  /** True when the values differ (after the same normalising the criteria use). */
  differs: boolean;
}

export interface OrderComparison<O extends Partial<OrderAttributes> = Partial<OrderAttributes>> {
  order: O;
  /** 0–100: the sum of the criteria's points. */
  score: number;
  criteria: CriterionResult[];
  /** Every compared attribute, side by side (the comparison screen marks those that differ). */
  attributes: AttributeComparison[];
}

export interface OrderRanking<O extends Partial<OrderAttributes> = Partial<OrderAttributes>> {
  /** Best first; equal scores keep the orders' given order. */
  ranked: OrderComparison<O>[];
  /** Warnings about the exam itself (several patients in one study). */
  warnings: string[];
}

/** Points per criterion when it matches fully (they sum to 100); a partial match earns half. */
export const CRITERION_WEIGHTS: Record<MatchCriterion, number> = {
  mrn: 35,
  name: 25,
  birth_date: 20,
  sex: 5,
  modality: 5,
  date: 10,
};

const LABELS: Record<MatchCriterion, string> = {
  mrn: 'MRN',
  name: 'Name',
  birth_date: 'Birth date',
  sex: 'Sex',
  modality: 'Modality',
  date: 'Date',
};

/** How many days apart an exam and an order's scheduled date may be and still count as close. */
export const CLOSE_DATE_DAYS = 7;

export const MULTIPLE_PATIENTS_WARNING = 'This exam holds images of more than one patient';

/** `YYYYMMDD` or `YYYY-MM-DD` as `YYYY-MM-DD`; '' when it is neither. */
export function isoDateOf(value: string | undefined): string {
  const v = (value ?? '').trim();
  const m = /^(\d{4})-?(\d{2})-?(\d{2})$/.exec(v);
  return m ? `${m[1]}-${m[2]}-${m[3]}` : '';
}

/** A PN's components, upper-cased, without empty ones: `Doe^Jane^^` → ['DOE', 'JANE']. */
function nameParts(value: string | undefined): string[] {
  return (value ?? '')
    .toUpperCase()
    .split(/[\^,\s]+/)
    .map((p) => p.trim())
    .filter(Boolean);
}

/** A value as compared: trimmed, upper-cased; dates as ISO; names as their joined parts. */
function normalised(field: string, value: string | undefined): string {
  if (field.endsWith('date')) return isoDateOf(value) || (value ?? '').trim();
  if (field === 'patient_name' || field === 'referring_physician') return nameParts(value).join(' ');
  if (field === 'modality') return modalities(value).sort().join('\\');
  return (value ?? '').trim().toUpperCase();
}

function modalities(value: string | undefined): string[] {
  return (value ?? '')
    .toUpperCase()
    .split(/[\\,\s]+/)
    .filter(Boolean);
}

function shown(field: string, value: string): string {
  return field.endsWith('date') ? isoDateOf(value) || value : value;
}

function result(criterion: MatchCriterion, outcome: MatchOutcome, detail?: string): CriterionResult {
  const label = LABELS[criterion];
  const weight = CRITERION_WEIGHTS[criterion];
  const points = outcome === 'match' ? weight : outcome === 'partial' ? Math.floor(weight / 2) : 0;
  const verb = { match: 'matches', partial: 'is close', differ: 'differs', unknown: 'is not known' }[outcome];
  return { criterion, outcome, points, reason: detail ? `${label} ${verb}: ${detail}` : `${label} ${verb}` };
}

function plain(criterion: MatchCriterion, field: string, exam: string, order: string): CriterionResult {
  const a = normalised(field, exam);
  const b = normalised(field, order);
  if (!a || !b) return result(criterion, 'unknown');
  return a === b
    ? result(criterion, 'match')
    : result(criterion, 'differ', `${shown(field, exam)} vs ${shown(field, order)}`);
}

function nameCriterion(exam: string, order: string): CriterionResult {
  const a = nameParts(exam);
  const b = nameParts(order);
  if (!a.length || !b.length) return result('name', 'unknown');
  if (a.join(' ') === b.join(' ')) return result('name', 'match');
  // The same parts in another order (given and family swapped), or the same family name with the
  // same first initial, is a name keyed differently, not another person.
  const sameSet = [...a].sort().join(' ') === [...b].sort().join(' ');
  const sameFamily = a[0] === b[0] && (a[1]?.[0] ?? '') === (b[1]?.[0] ?? '');
  const detail = `${exam} vs ${order}`;
  return sameSet || sameFamily ? result('name', 'partial', detail) : result('name', 'differ', detail);
}

function dayNumber(iso: string): number {
  return Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
}

function dateCriterion(exam: string, order: string): CriterionResult {
  const a = isoDateOf(exam);
  const b = isoDateOf(order);
  if (!a || !b) return result('date', 'unknown');
  if (a === b) return result('date', 'match');
  const days = Math.abs(dayNumber(a) - dayNumber(b));
  const detail = `${a} vs ${b} (${days} day${days === 1 ? '' : 's'} apart)`;
  return result('date', days <= CLOSE_DATE_DAYS ? 'partial' : 'differ', detail);
}

function modalityCriterion(exam: string, order: string): CriterionResult {
  const a = modalities(exam);
  const b = modalities(order);
  if (!a.length || !b.length) return result('modality', 'unknown');
  // An exam holds the ordered modality plus others (a CT with its SR): that still matches.
  if (b.every((m) => a.includes(m))) return result('modality', 'match');
  return result('modality', 'differ', `${a.join(', ')} vs ${b.join(', ')}`);
}

/** The exam against one order: criteria with points and reasons, and every attribute side by side. */
export function compareOrder<O extends Partial<OrderAttributes>>(
  exam: ExamDemographics,
  order: O,
): OrderComparison<O> {
  const criteria = [
    plain('mrn', 'patientid', exam.patientid, order.patientid ?? ''),
    nameCriterion(exam.patient_name, order.patient_name ?? ''),
    plain('birth_date', 'patient_birth_date', exam.patient_birth_date, order.patient_birth_date ?? ''),
    plain('sex', 'patient_sex', exam.patient_sex, order.patient_sex ?? ''),
    modalityCriterion(exam.modality, order.modality ?? ''),
    dateCriterion(exam.study_date, order.scheduled_date ?? ''),
  ];
  const attributes = COMPARED_ATTRIBUTES.map(({ exam: ef, order: of, label }) => {
    const e = exam[ef] ?? '';
    const o = order[of] ?? '';
    const differs =
      ef === 'modality'
        ? modalityCriterion(e, o).outcome === 'differ'
        : normalised(ef, e) !== normalised(ef, o);
    return { exam_field: ef, order_field: of, label, exam: e, order: o, differs };
  });
  return { order, score: criteria.reduce((sum, c) => sum + c.points, 0), criteria, attributes };
}

/** Warnings about the exam itself, whatever the order. */
export function examWarnings(exam: ExamDemographics): string[] {
  const keys = new Set(
    (exam.patients ?? []).map(
      (p) => `${normalised('patientid', p.patientid)}|${normalised('patient_name', p.patient_name)}`,
    ),
  );
  return keys.size > 1 ? [MULTIPLE_PATIENTS_WARNING] : [];
}

/** Candidate orders ranked best first (a stable sort: ties keep the given order), with the exam's warnings. */
export function rankOrders<O extends Partial<OrderAttributes>>(
  exam: ExamDemographics,
  orders: readonly O[],
): OrderRanking<O> {
  const ranked = orders
    .map((order, index) => ({ comparison: compareOrder(exam, order), index }))
    .sort((a, b) => b.comparison.score - a.comparison.score || a.index - b.index)
    .map((r) => r.comparison);
  return { ranked, warnings: examWarnings(exam) };
}
