/**
 * A table of the product's texts: English text (the key) → its wording in one language. Its own file
 * so that the locale tables, which `i18n.ts` loads, do not import `i18n.ts` back.
 */
export type Messages = Readonly<Record<string, string>>;
