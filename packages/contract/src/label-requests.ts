import { z } from 'zod';
import { MAX_PAGE_ROWS } from './limits.js';
import { optionalText, pageParams, requiredText } from './api-params.js';

/**
 * Request schemas of the account's label overrides (api-params.ts explains the codecs). Without
 * `account_id` a call is about the caller's first account, the one the session opens on.
 */
export const labelListRequest = z.object({ account_id: optionalText(), ...pageParams(MAX_PAGE_ROWS) });

export const labelSetRequest = z.object({
  account_id: optionalText(),
  language: requiredText(),
  key: requiredText(),
  text: requiredText(),
});

export const labelDeleteRequest = z.object({
  account_id: optionalText(),
  language: requiredText(),
  key: requiredText(),
});
