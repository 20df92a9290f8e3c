import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { QueryTemplate } from './query-template.js';

/** Lists up to this long get a compiled statement of their own; longer ones are built each time. */
const MAX_CACHED_LENGTH = 100;

/**
 * A query over a list of values (`where x in (…)`), built and compiled once per list length: a
 * page's tags, custom fields and pushes are read for its 50 studies on every study/list, and
 * building and compiling them cost more JavaScript than SQLite spends running them. The SQL text
 * is the one the builder compiles, so plans and answers are the builder's own.
 */
export class InListTemplate<Row> {
  private readonly byLength = new Map<number, QueryTemplate<Record<string, string>, Row>>();

  constructor(private readonly build: (values: readonly string[]) => Compilable<Row>) {}

  async execute(
    executor: { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> },
    values: readonly string[],
  ): Promise<Row[]> {
    if (values.length > MAX_CACHED_LENGTH)
      return (await executor.executeQuery(this.build(values).compile())).rows;
    let template = this.byLength.get(values.length);
    if (!template) {
      const slots = values.map((_, i) => String(i));
      template = new QueryTemplate((slot) => this.build(slots.map((name) => slot(name))));
      this.byLength.set(values.length, template);
    }
    // Slot i takes the list's value at index i: the list itself serves as the arguments.
    return (await template.execute(executor, values as unknown as Record<string, string>)).rows;
  }
}
