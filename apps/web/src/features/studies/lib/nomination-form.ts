import type { NominationFormField, PromoteTarget } from '@imaging-inbox/contract';
import { t } from '../../../lib/i18n';

export const MANDATORY_MESSAGE = 'Please complete all the mandatory fields.';
export const ENTER_A_VALUE = 'Please enter a value';
export const FORM_NOT_CONFIGURED = 'PACS form not configured. Contact your administrator';

/** Free-text answers long enough to deserve a few lines. */
const MULTILINE = new Set(['reason_for_visit', 'additional_patient_history', 'exam_external_description']);

export const isMultiline = (field: NominationFormField) => MULTILINE.has(field.name);

/** Empty answers for a gatekeeper's form; a choice field starts on its first option (Routine). */
export function emptyAnswers(fields: readonly NominationFormField[]): Record<string, string> {
  return Object.fromEntries(fields.map((f) => [f.name, f.options?.[0] ?? '']));
}

/** The required fields left blank (SPEC.md section 5, Nomination). */
export function missingAnswers(
  fields: readonly NominationFormField[],
  answers: Record<string, string>,
): string[] {
  return fields.filter((f) => f.required && !(answers[f.name] ?? '').trim()).map((f) => f.name);
}

/** The answers to send: trimmed, blanks left out. */
export function answersToSend(answers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(answers)
      .map(([name, value]) => [name, value.trim()] as const)
      .filter(([, value]) => value !== ''),
  );
}

/** The gatekeeper preselected: the only one, else none (the user chooses). */
export function initialGatekeeper(targets: readonly PromoteTarget[]): string {
  return targets.length === 1 ? targets[0]!.uuid : '';
}

/**
 * The labels SPEC.md gives the nomination form's fields and choices, which the demo's form uses:
 * shown in the user's language. A label or choice a group wrote itself is shown as written.
 */
export const STANDARD_FORM_TEXTS: readonly string[] = [
  'Order type',
  'Priority',
  'MRN',
  'Modality',
  'Reason for visit',
  'Additional patient history',
  'Exam external description',
  'Referring physician',
  'Nominated by',
  'Routine',
];

/** A form label or choice as shown: a standard one in the user's language, any other as written. */
export function formText(text: string): string {
  return STANDARD_FORM_TEXTS.includes(text) ? t(text) : text;
}

/** A field's label for an answer shown back (view details), from the form or else from its name. */
export function answerLabel(fields: readonly NominationFormField[] | null | undefined, name: string): string {
  const label = fields?.find((f) => f.name === name)?.label;
  if (label) return label;
  const words = name.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}
