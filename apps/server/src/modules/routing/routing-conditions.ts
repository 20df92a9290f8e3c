import { ROUTE_REGEX_INPUT_MAX } from '@imaging-inbox/contract';
import type { RouteCondition } from '@imaging-inbox/contract';
import { userPatternTest } from './user-pattern.js';

/** The study values a rule's conditions read. */
export interface RoutedStudy {
  modality: string;
  source_ae_title: string;
  destination_ae_title: string;
  referring_physician: string;
  study_description: string;
  patient_name: string;
}

/**
 * The values a condition on `field` compares with: a study's modalities one by one; a person name
 * both as DICOM stores it (`DOE^JOHN`) and as people write it (`DOE JOHN`); a custom field's value.
 */
export function valuesOf(
  field: string,
  study: RoutedStudy,
  custom: ReadonlyMap<string, string | null>,
): string[] {
  const person = (raw: string) => [raw, raw.replace(/\^+/g, ' ').trim()];
  switch (field) {
    case 'modality':
      return study.modality.split('\\').filter(Boolean);
    case 'source_ae':
      return [study.source_ae_title];
    case 'called_ae':
      return [study.destination_ae_title];
    case 'referring_physician':
      return person(study.referring_physician);
    case 'study_description':
      return [study.study_description];
    case 'patient_name':
      return person(study.patient_name);
    default:
      return field.startsWith('custom:') ? [custom.get(field.slice('custom:'.length)) ?? ''] : [];
  }
}

/**
 * Does one value meet the condition? Text compares trimmed and case-insensitively. A regex runs
 * on RE2's algorithm (linear time) over a bounded input; one RE2 cannot compile (saved before it
 * was the engine) throws UserPatternError, which fails the rule, not the evaluation.
 */
export function meets(condition: RouteCondition, value: string): boolean {
  const have = value.trim().toLowerCase();
  const want = condition.value.trim().toLowerCase();
  if (condition.op === 'equals') return have === want;
  if (condition.op === 'contains') return have.includes(want);
  return userPatternTest(condition.value, value, ROUTE_REGEX_INPUT_MAX);
}

/**
 * all: every condition holds; any: at least one; no conditions: always. The event loop runs other
 * work before each regex test, so a rule holds the process for one test at most (a few tens of
 * milliseconds at the repetition limit), however many conditions and values it has.
 */
export async function matches(
  conditions: readonly RouteCondition[],
  match: 'all' | 'any',
  study: RoutedStudy,
  custom: ReadonlyMap<string, string | null>,
): Promise<boolean> {
  if (!conditions.length) return true;
  const holds = async (c: RouteCondition) => {
    for (const value of valuesOf(c.field, study, custom)) {
      if (c.op === 'regex') await new Promise<void>((resolve) => setImmediate(resolve));
      if (meets(c, value)) return true;
    }
    return false;
  };
  for (const condition of conditions) {
    const held = await holds(condition);
    if (match === 'any' && held) return true;
    if (match === 'all' && !held) return false;
  }
  return match === 'all';
}
