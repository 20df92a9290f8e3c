import type { Compilable, CompiledQuery, QueryResult } from 'kysely';
import { TemplateCache } from './template-cache.js';

/** Lists up to this long get a compiled statement of their own; longer ones are built each time. */
const MAX_CACHED_LENGTH = 100;

/**
 * A query over a list of values (`where x in (…)`), built and compiled once per list length: a
 * page's tags, custom fields and pushes are read for its 50 studies on every study/list, and
 * building and compiling them cost more JavaScript than SQLite spends running them. The SQL text
 * is the one the builder compiles, so plans and answers are the builder's own.
 */
export class InListTemplate<Row> {
  private readonly byLength = new TemplateCache<Record<string, string>, Row>(MAX_CACHED_LENGTH);

  constructor(private readonly build: (values: readonly string[]) => Compilable<Row>) {}

  async execute(
    executor: { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> },
    values: readonly string[],
  ): Promise<Row[]> {
    if (values.length > MAX_CACHED_LENGTH)
      return (await executor.executeQuery(this.build(values).compile())).rows;
    // Built only the first time a list of this length comes: slot i stands for the value at index i.
    const template = this.byLength.get(String(values.length), (slot) =>
      this.build(values.map((_, i) => slot(String(i)))),
    );
    // The list itself serves as the arguments (slot i takes index i).
    return (await template.execute(executor, values as unknown as Record<string, string>)).rows;
  }
}
