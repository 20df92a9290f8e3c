import { formatDistanceToNow, parseISO } from 'date-fns';

/** '5 minutes ago' for an ISO 8601 time or epoch milliseconds; the raw value if unreadable. */
export function timeAgo(when: string | number): string {
  const date = typeof when === 'number' ? new Date(when) : parseISO(when);
  return Number.isNaN(date.getTime()) ? String(when) : formatDistanceToNow(date, { addSuffix: true });
}
