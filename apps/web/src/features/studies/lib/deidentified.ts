import { errorBody } from '../../../lib/api-error';
import type { RefusedFiles } from './download';

type Translate = (key: string, values?: Record<string, string | number>) => string;

/**
 * The words for what a de-identified download or share left out (images that may show burned-in
 * text, files that could not be read), or null when nothing was (issue 33, docs/privacy.md).
 */
export function refusedNotice(refused: RefusedFiles, t: Translate): string | null {
  const parts: string[] = [];
  if (refused.burnedIn > 0)
    parts.push(
      t('{{count}} images that may show burned-in patient text were left out.', { count: refused.burnedIn }),
    );
  if (refused.unreadable > 0)
    parts.push(
      t('{{count}} files that could not be de-identified were left out.', { count: refused.unreadable }),
    );
  return parts.length ? parts.join(' ') : null;
}

/** Whether a refusal is NOT_PERMITTED `burned_in_text`: every file might show the patient's name. */
export function refusedForBurnedInText(error: unknown): boolean {
  const body = errorBody(error);
  return body?.error_type === 'NOT_PERMITTED' && body.error_subtype === 'burned_in_text';
}
