import { MEGABYTE, NAME_CUT } from '@imaging-inbox/contract';

/** Group and destination names are cut to 25 characters in dropdowns (SPEC.md section 9). */
export function cutName(name: string, max: number = NAME_CUT): string {
  return name.length > max ? `${name.slice(0, max)}…` : name;
}

/** Bytes shown in MB with one decimal. */
export function formatMegabytes(bytes: number): string {
  return `${(bytes / MEGABYTE).toFixed(1)} MB`;
}

/** DICOM YYYYMMDD to the default display format MM-DD-YYYY; other input is returned as is. */
export function formatDicomDate(value: string | null | undefined): string {
  if (!value) return '';
  const m = /^(\d{4})(\d{2})(\d{2})$/.exec(value);
  return m ? `${m[2]}-${m[3]}-${m[1]}` : value;
}

/** DICOM person names use ^ between components: DOE^JOHN → DOE, JOHN. */
export function formatPatientName(value: string | null | undefined): string {
  if (!value) return '';
  return value
    .split('^')
    .filter((part) => part.trim() !== '')
    .join(', ');
}

/** An ISO timestamp in local time as MM-DD-YYYY HH:mm; other input is returned as is. */
export function formatTimestamp(value: string | null | undefined): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(date.getMonth() + 1)}-${pad(date.getDate())}-${date.getFullYear()} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
