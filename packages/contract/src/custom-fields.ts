/**
 * Custom fields (SPEC.md section 3): per-account definitions of extra exam fields, answered by
 * customfield/list and filled in the Exchange tab. A study's values are set with study/set under
 * the Ambra parameter name `customfield-{uuid}`.
 */
export const CUSTOM_FIELD_TYPES = ['radio', 'select', 'text', 'memo'] as const;
export type CustomFieldType = (typeof CUSTOM_FIELD_TYPES)[number];

/** The objects a field can be defined for; only studies have custom fields so far. */
export const CUSTOM_FIELD_OBJECTS = ['study'] as const;
export type CustomFieldObject = (typeof CUSTOM_FIELD_OBJECTS)[number];

/** One choice of a radio or select field: the stored value and the label shown for it. */
export interface CustomFieldOption {
  value: string;
  field_label: string;
}

/** A custom field definition as customfield/list answers it. */
export interface CustomField {
  uuid: string;
  account_id: string;
  name: string;
  type: CustomFieldType;
  required: 0 | 1;
  /** The choices of a radio or select field, in display order; empty for text and memo. */
  options: CustomFieldOption[];
  object: CustomFieldObject;
  display_order: number;
}

export interface CustomFieldListAnswer {
  customfields: CustomField[];
  page: { number: number; rows: number; more: 0 | 1 };
}

/** Longest value of a one-line text field (and of a radio or select value). */
export const CUSTOM_FIELD_TEXT_MAX_LENGTH = 256;
/** Longest value of a memo field. */
export const CUSTOM_FIELD_MEMO_MAX_LENGTH = 4000;

/** The study/set parameter carrying a field's value (Ambra's name). */
export const customFieldParam = (uuid: string): string => `customfield-${uuid}`;

export type CustomFieldProblem = 'required' | 'not_an_option' | 'too_long';

/**
 * What is wrong with a value for a field, or null when it is acceptable: the one rule the web form
 * and study/set both apply. A blank value clears an optional field; values are compared trimmed.
 */
export function customFieldProblem(
  field: Pick<CustomField, 'type' | 'required' | 'options'>,
  raw: string,
): CustomFieldProblem | null {
  const value = raw.trim();
  if (value === '') return field.required ? 'required' : null;
  if (field.type === 'radio' || field.type === 'select') {
    return field.options.some((o) => o.value === value) ? null : 'not_an_option';
  }
  const max = field.type === 'memo' ? CUSTOM_FIELD_MEMO_MAX_LENGTH : CUSTOM_FIELD_TEXT_MAX_LENGTH;
  return value.length > max ? 'too_long' : null;
}
