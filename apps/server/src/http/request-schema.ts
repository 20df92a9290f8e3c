import { PARAM_MISSING } from '@imaging-inbox/contract';
import type { ParamIssueParams } from '@imaging-inbox/contract';
import type { z } from 'zod';
import { invalidField, missingFields } from '../domain/errors.js';
import type { Params } from './params.js';

/** A route's parameter schema: an object of contract param codecs (packages/contract api-params.ts). */
export type RequestSchema = z.ZodType;

/**
 * Parses a request's parameters with its schema. Absent or blank required parameters answer
 * MISSING_FIELDS naming all of them, in the schema's order; otherwise the first bad value answers
 * INVALID_FIELD with its name (or the sub-type its codec names) and why.
 */
export function parseRequest<S extends RequestSchema>(schema: S, params: Params): z.output<S> {
  const result = schema.safeParse(params);
  if (result.success) return result.data;
  const issues = result.error.issues;
  const missing = issues.filter((i) => i.message === PARAM_MISSING).map((i) => i.path.join('.'));
  if (missing.length) throw missingFields(missing);
  const first = issues[0]!;
  const subtype = (first as { params?: ParamIssueParams }).params?.subtype ?? first.path.join('.');
  throw invalidField(subtype, first.message);
}
