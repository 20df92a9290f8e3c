import {
  isoDateOf,
  type CriterionResult,
  type MatchCriterion,
  type OrderComparison,
} from '@imaging-inbox/contract';
import { t } from '../../../lib/i18n';
import { formatDicomDate, formatModalities, formatPatientName } from '../../../lib/format';
import type { DateFormat } from '@imaging-inbox/contract';

/** The exam's field each criterion compares, whose two values a reason quotes. */
const FIELDS: Record<MatchCriterion, string> = {
  mrn: 'patientid',
  name: 'patient_name',
  birth_date: 'patient_birth_date',
  sex: 'patient_sex',
  modality: 'modality',
  date: 'study_date',
};

const LABELS: Record<MatchCriterion, string> = {
  mrn: 'MRN',
  name: 'Name',
  birth_date: 'Birth date',
  sex: 'Sex',
  modality: 'Modality',
  date: 'Date',
};

/** A compared value as the pages show it: dates in the user's format, names and modalities in words. */
function shown(criterion: MatchCriterion, value: string, dateFormat: DateFormat): string {
  if (criterion === 'birth_date' || criterion === 'date') {
    const iso = isoDateOf(value);
    return iso ? formatDicomDate(iso.replaceAll('-', ''), dateFormat) : value;
  }
  if (criterion === 'name') return formatPatientName(value);
  if (criterion === 'modality') return formatModalities(value);
  return value;
}

function daysApart(a: string, b: string): number {
  const day = (iso: string) => Math.round(Date.parse(`${iso}T00:00:00Z`) / 86_400_000);
  return Math.abs(day(isoDateOf(a)) - day(isoDateOf(b)));
}

/**
 * Why one criterion of an order match came out as it did, in the user's language: 'MRN matches',
 * 'Date is close: 12-28-2025 vs 12-30-2025 (2 days apart)'. The values are the comparison's own,
 * shown in the user's date format, names and modalities in words.
 */
export function matchReason(
  criterion: CriterionResult,
  comparison: Pick<OrderComparison, 'attributes'>,
  dateFormat: DateFormat,
): string {
  const label = t(LABELS[criterion.criterion]);
  if (criterion.outcome === 'match') return t('{{criterion}} matches', { criterion: label });
  if (criterion.outcome === 'unknown') return t('{{criterion}} is not known', { criterion: label });
  const attribute = comparison.attributes.find((a) => a.exam_field === FIELDS[criterion.criterion]);
  const exam = attribute?.exam ?? '';
  const order = attribute?.order ?? '';
  const values = {
    criterion: label,
    exam: shown(criterion.criterion, exam, dateFormat),
    order: shown(criterion.criterion, order, dateFormat),
  };
  const close = criterion.outcome === 'partial';
  if (criterion.criterion === 'date') {
    const count = daysApart(exam, order);
    return close
      ? t('{{criterion}} is close: {{exam}} vs {{order}} ({{count}} days apart)', { ...values, count })
      : t('{{criterion}} differs: {{exam}} vs {{order}} ({{count}} days apart)', { ...values, count });
  }
  return close
    ? t('{{criterion}} is close: {{exam}} vs {{order}}', values)
    : t('{{criterion}} differs: {{exam}} vs {{order}}', values);
}

/** Every criterion's reason, joined as the pages list them. */
export function matchReasons(comparison: OrderComparison, dateFormat: DateFormat): string {
  return comparison.criteria.map((c) => matchReason(c, comparison, dateFormat)).join(' · ');
}
