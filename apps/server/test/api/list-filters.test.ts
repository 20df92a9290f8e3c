import { LIST_FILTERS, MAX_FILTER_LENGTH, MAX_LIST_FILTERS } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { World } from '../support/access-world.js';
import { buildWorld } from '../support/access-world.js';
import { listWalk } from '../support/list-params.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * Ambra's filter convention on every api/v3 list: `filter.<field>.<condition>` (equals, like, in,
 * ge, le, gt, lt) on the fields of the list's rows, read by one parser (LIST_FILTERS in the
 * contract). Walks every registered list (found by name, so a new list is walked without being
 * named here): a filter that matches nothing empties it, `like` `%` keeps every row, and an unknown
 * field, an unknown condition, too many filters or a too-long value is INVALID_FIELD naming it.
 */

/** Lists with their own field table (study/list: STUDY_FILTER_FIELDS and custom fields). */
const OWN_FIELDS: Record<string, string> = { 'study/list': 'patientid' };

/** The row array of a list answer. */
function rowsOf(body: Record<string, unknown>): unknown[] | undefined {
  return Object.values(body).find((v): v is unknown[] => Array.isArray(v));
}

describe.each(DIALECTS)('filters of every list on %s', (dialect) => {
  let server: TestServer;
  let world: World;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    world = await buildWorld(server);
  }, 240_000);
  afterAll(() => server?.stop());

  const { call, lists } = listWalk(() => ({ server, world }));
  /** A field the list filters on, with a condition it takes. */
  const fieldOf = (path: string): [string, string] => {
    if (OWN_FIELDS[path]) return [OWN_FIELDS[path], 'equals'];
    const spec = LIST_FILTERS[path];
    if (!spec) throw new Error(`${path} declares no filter fields in LIST_FILTERS`);
    const [field, conditions] = Object.entries(spec.fields)[0]!;
    return [field, conditions.includes('equals') ? 'equals' : conditions[0]!];
  };

  it('declares filter fields for every list', () => {
    const lists_ = lists();
    expect(lists_).toContain('audit/log');
    expect(lists_.filter((path) => !LIST_FILTERS[path] && !OWN_FIELDS[path])).toEqual([]);
  });

  it('applies filter.<field>.<condition>: a value matching nothing empties the list, like % keeps it whole', async () => {
    const wrong: string[] = [];
    for (const path of lists()) {
      const [field, condition] = fieldOf(path);
      const whole = await call(path, {});
      const none = await call(path, { [`filter.${field}.${condition}`]: 'no-such-value-0000' });
      if (none.body.status !== 'OK')
        wrong.push(`${path} ${field}.${condition}: ${JSON.stringify(none.body)}`);
      else if (rowsOf(none.body)?.length !== 0)
        wrong.push(`${path} ${field}.${condition}: ${rowsOf(none.body)?.length} rows, filter not applied`);
      const likes = LIST_FILTERS[path]?.fields[field]?.includes('like') ?? false;
      if (likes) {
        const all = await call(path, { [`filter.${field}.like`]: '%' });
        if (rowsOf(all.body)?.length !== rowsOf(whole.body)?.length)
          wrong.push(
            `${path} ${field}.like %: ${rowsOf(all.body)?.length} of ${rowsOf(whole.body)?.length} rows`,
          );
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);

  it('refuses an unknown field, an unknown condition, too many filters and a too-long value as INVALID_FIELD', async () => {
    const wrong: string[] = [];
    for (const path of lists()) {
      const [field] = fieldOf(path);
      const cases: [Record<string, string>, string][] = [
        [{ 'filter.no_such_field.equals': 'x' }, 'filter.no_such_field.equals'],
        [{ [`filter.${field}.regex`]: '.*' }, `filter.${field}.regex`],
        [{ [`filter.${field}.equals`]: 'x'.repeat(MAX_FILTER_LENGTH + 1) }, `filter.${field}.equals`],
        [
          Object.fromEntries(
            Array.from({ length: MAX_LIST_FILTERS + 1 }, (_, i) => [
              `filter.${field}.equals${'.x'.repeat(i)}`,
              'x',
            ]),
          ),
          'filter',
        ],
      ];
      for (const [params, subtype] of cases) {
        const { body } = await call(path, params);
        if (body.error_type !== 'INVALID_FIELD' || body.error_subtype !== subtype)
          wrong.push(`${path} ${Object.keys(params)[0]}: ${JSON.stringify(body).slice(0, 200)}`);
      }
    }
    expect(wrong).toEqual([]);
  }, 120_000);
});
