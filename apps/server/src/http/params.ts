import type { FastifyRequest } from 'fastify';
import { missingFields, invalidField } from '../domain/errors.js';

/**
 * api/v3 takes its parameters from the query string and from a form or JSON body alike; dotted
 * keys such as `filter.patient_name.like` are literal names, not nesting.
 */
export type Params = Record<string, string>;

export function collectParams(request: FastifyRequest): Params {
  const out: Params = {};
  const add = (source: unknown) => {
    // A streamed upload body or a buffer carries no parameters.
    if (!source || typeof source !== 'object' || Buffer.isBuffer(source)) return;
    if (typeof (source as { pipe?: unknown }).pipe === 'function') return;
    for (const [key, value] of Object.entries(source as Record<string, unknown>)) {
      if (value === undefined || value === null) continue;
      if (typeof value === 'string') out[key] = value;
      else if (typeof value === 'number' || typeof value === 'boolean') out[key] = String(value);
      else out[key] = JSON.stringify(value);
    }
  };
  add(request.query);
  add(request.body);
  return out;
}

/** The trimmed values of required parameters, in order; MISSING_FIELDS names every absent one. */
export function required<const N extends readonly string[]>(
  params: Params,
  ...names: N
): { [K in keyof N]: string } {
  const missing = names.filter((n) => !params[n]?.trim());
  if (missing.length) throw missingFields(missing);
  return names.map((n) => params[n]!.trim()) as { [K in keyof N]: string };
}

export function optionalInt(
  params: Params,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const raw = params[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw invalidField(name, `must be an integer from ${min} to ${max}`);
  }
  return value;
}

/** A JSON array of strings, or one plain string, as the `in` filters accept both. */
export function stringList(raw: string, name: string): string[] {
  const text = raw.trim();
  if (!text.startsWith('['))
    return text
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw invalidField(name, 'must be a JSON array');
  }
  if (!Array.isArray(parsed) || !parsed.every((v) => typeof v === 'string' || typeof v === 'number')) {
    throw invalidField(name, 'must be a JSON array of strings');
  }
  return parsed.map(String);
}

export function flag(raw: string | undefined): 0 | 1 | undefined {
  if (raw === undefined || raw === '') return undefined;
  if (raw === '1' || raw === 'true') return 1;
  if (raw === '0' || raw === 'false') return 0;
  throw invalidField('flag', 'must be 0 or 1');
}
