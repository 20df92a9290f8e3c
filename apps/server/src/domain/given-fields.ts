/**
 * The entries of an edit that its caller gave. Administration edits change only the fields named in the
 * request; an absent field (undefined) keeps its stored value, while null is a value (it clears one).
 */
export function givenFields<T extends object>(fields: T): Partial<T> {
  return Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as Partial<T>;
}

/** `value` through `convert`, or undefined (not given) when `value` was not given. */
export function ifGiven<T, R>(value: T | undefined, convert: (value: T) => R): R | undefined {
  return value === undefined ? undefined : convert(value);
}
