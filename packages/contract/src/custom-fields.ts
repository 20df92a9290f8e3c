import { z } from 'zod';
import { PARAM_MISSING, choiceParam, flagParam, requiredText } from './api-params.js';

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

/** The longest custom field name, and how many choices a radio or select field may offer. */
export const CUSTOM_FIELD_NAME_MAX_LENGTH = 100;
export const CUSTOM_FIELD_MAX_OPTIONS = 100;

const optionSchema = z.object({
  value: z.string().trim().min(1).max(CUSTOM_FIELD_TEXT_MAX_LENGTH),
  field_label: z.string().trim().min(1).max(CUSTOM_FIELD_TEXT_MAX_LENGTH),
});

/**
 * The choices of a radio or select field: a JSON array of `{value, field_label}` or of plain
 * values (each its own label), or comma-separated values. Blank: none. Absent stays undefined.
 */
const optionsParam = () =>
  z
    .string()
    .optional()
    .transform((raw, ctx): CustomFieldOption[] | undefined => {
      if (raw === undefined) return undefined;
      const text = raw.trim();
      if (!text) return [];
      let list: unknown;
      if (text.startsWith('[')) {
        try {
          list = JSON.parse(text);
        } catch {
          ctx.issues.push({ code: 'custom', message: 'must be a JSON array', input: raw });
          return z.NEVER;
        }
      } else {
        list = text.split(',').map((v) => v.trim());
      }
      const items = Array.isArray(list)
        ? list.map((o: unknown) => (typeof o === 'string' ? { value: o, field_label: o } : o))
        : null;
      const parsed = z.array(optionSchema).max(CUSTOM_FIELD_MAX_OPTIONS).safeParse(items);
      const values = parsed.success ? parsed.data.map((o) => o.value) : [];
      if (!parsed.success || new Set(values).size !== values.length) {
        ctx.issues.push({
          code: 'custom',
          message: `must be up to ${CUSTOM_FIELD_MAX_OPTIONS} distinct choices, each with a value and a label`,
          input: raw,
        });
        return z.NEVER;
      }
      return parsed.data;
    });

const fieldName = () =>
  requiredText().max(
    CUSTOM_FIELD_NAME_MAX_LENGTH,
    `must be at most ${CUSTOM_FIELD_NAME_MAX_LENGTH} characters`,
  );

/** customfield/add: a new study field of account `account_id`. */
export const customFieldAddRequest = z.object({
  account_id: requiredText(),
  name: fieldName(),
  type: choiceParam(CUSTOM_FIELD_TYPES, `must be one of ${CUSTOM_FIELD_TYPES.join(', ')}`).pipe(
    z.enum(CUSTOM_FIELD_TYPES, { error: PARAM_MISSING }),
  ),
  required: flagParam(),
  options: optionsParam(),
});

/** customfield/set: changes the name, required flag and/or choices of field `uuid` (its type stays). */
export const customFieldSetRequest = z.object({
  uuid: requiredText(),
  name: fieldName().optional(),
  required: flagParam(),
  options: optionsParam(),
});

/** customfield/delete: removes field `uuid` and every exam's value of it. */
export const customFieldDeleteRequest = z.object({ uuid: requiredText() });

export type CustomFieldAddRequest = z.output<typeof customFieldAddRequest>;
export type CustomFieldSetRequest = z.output<typeof customFieldSetRequest>;
