/**
 * DICOM DA/TM/AS formatting, in UTC so that generated data does not depend on the machine's time zone.
 * Helpers are module-level functions (no closures per call) because the benchmark generator calls these
 * millions of times.
 */

function pad2(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}

function pad3(n: number): string {
  return String(Math.min(n, 999)).padStart(3, '0');
}

export function formatDA(date: Date): string {
  return `${String(date.getUTCFullYear()).padStart(4, '0')}${pad2(date.getUTCMonth() + 1)}${pad2(date.getUTCDate())}`;
}

export function formatTM(date: Date): string {
  return `${pad2(date.getUTCHours())}${pad2(date.getUTCMinutes())}${pad2(date.getUTCSeconds())}`;
}

const DA = /^(\d{4})(\d{2})(\d{2})$/;

/**
 * Patient's Age (AS, e.g. `045Y`) at `atDA` for a birth date `birthDA`, both `YYYYMMDD`; '' if either is
 * not a date or the birth is later. Infants are given in months or days, as modalities do, because
 * `000Y` says nothing.
 */
export function dicomAge(birthDA: string, atDA: string): string {
  const birth = DA.exec(birthDA);
  const at = DA.exec(atDA);
  if (!birth || !at) return '';
  const [by, bm, bd] = [Number(birth[1]), Number(birth[2]), Number(birth[3])];
  const [ay, am, ad] = [Number(at[1]), Number(at[2]), Number(at[3])];
  const months = (ay - by) * 12 + (am - bm) - (ad < bd ? 1 : 0);
  if (months < 0) return '';
  if (months >= 24) return `${pad3(Math.floor(months / 12))}Y`;
  if (months >= 1) return `${pad3(months)}M`;
  return `${pad3(Math.round((Date.UTC(ay, am - 1, ad) - Date.UTC(by, bm - 1, bd)) / 86_400_000))}D`;
}
