/** Date arithmetic for the date shift of Retain Longitudinal Temporal Information with Modified Dates. */

const DA = /^(\d{4})(\d{2})(\d{2})$/;
const DT = /^(\d{8})(\d*(?:\.\d{1,6})?(?:[+-]\d{4})?)$/;

/** A DA value (`YYYYMMDD`) moved back by `days`; null when it is not a valid date. */
export function shiftDA(value: string, days: number): string | null {
  const m = DA.exec(value.trim());
  if (!m) return null;
  const at = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  const date = new Date(at - days * 86_400_000);
  if (Number.isNaN(date.getTime()) || date.getUTCFullYear() < 1) return null;
  const y = String(date.getUTCFullYear()).padStart(4, '0');
  const mo = String(date.getUTCMonth() + 1).padStart(2, '0');
  const d = String(date.getUTCDate()).padStart(2, '0');
  return `${y}${mo}${d}`;
}

/** A DT value moved back by `days` (its time of day and offset kept); null when its date part is not a date. */
export function shiftDT(value: string, days: number): string | null {
  const m = DT.exec(value.trim());
  if (!m) return null;
  const date = shiftDA(m[1]!, days);
  return date === null ? null : `${date}${m[2]}`;
}
