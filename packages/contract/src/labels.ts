import type { Language } from './languages.js';

/**
 * An account's own wording of the product's labels (SPEC: "administration screens … with
 * translations of their labels"): in one language, the label whose English original is `key`
 * reads `text` for every user of the account.
 */
export interface LabelOverride {
  language: Language;
  /** The label's English original, as the web app's message tables key it. */
  key: string;
  text: string;
}

export const LABEL_KEY_MAX_LENGTH = 500;
export const LABEL_TEXT_MAX_LENGTH = 1000;
/** An account may reword this many labels in all (every language together). */
export const MAX_LABEL_OVERRIDES = 2000;

export const LABEL_MESSAGES = {
  languageInvalid: 'Choose one of the supported languages',
  keyTooLong: `The original text is at most ${LABEL_KEY_MAX_LENGTH} characters`,
  textTooLong: `The replacement is at most ${LABEL_TEXT_MAX_LENGTH} characters`,
  tooMany: `An account may replace at most ${MAX_LABEL_OVERRIDES} labels`,
  notFound: 'No replacement of this label in this language',
} as const;

/** What label/list answers. */
export interface LabelListAnswer {
  labels: LabelOverride[];
}
