import type { Compilable, CompiledQuery, QueryResult } from 'kysely';

/** Marks a slot's place among a template's parameters; no real value starts with a NUL character. */
const SLOT_PREFIX = '\u0000slot:';

/**
 * A fixed query built and compiled once, then run many times with new values. Building a Kysely
 * query and compiling it to SQL costs more JavaScript than better-sqlite3 spends running a small
 * indexed statement, and the ingest path runs the same few statements for every received
 * instance (docs/performance-log.md, C-STORE). The SQL text is the one Kysely compiles for the
 * database's dialect, so it stays portable; only the parameter values change between runs.
 *
 * `build` receives `slot(name)`, which stands for the value named `name` wherever a value goes
 * (where clauses, inserted values, `sql` template arguments). The SQL must not depend on the values
 * themselves: a builder that branches on a value needs one template per branch.
 */
export class QueryTemplate<Args extends Record<string, unknown>, Row> {
  private compiled: CompiledQuery<Row> | undefined;
  /** For each parameter of the compiled query: the slot it takes its value from, or a fixed value. */
  private sources: ({ slot: keyof Args } | { value: unknown })[] = [];

  constructor(
    private readonly build: (slot: <K extends keyof Args & string>(name: K) => Args[K]) => Compilable<Row>,
  ) {}

  /** Runs the query with these values, on `executor` (a transaction, a connection or the database). */
  async execute(
    executor: { executeQuery<R>(query: CompiledQuery<R>): Promise<QueryResult<R>> },
    args: Args,
  ): Promise<QueryResult<Row>> {
    const compiled = this.compiled ?? this.compile();
    const parameters = this.sources.map((source) => ('slot' in source ? args[source.slot] : source.value));
    return executor.executeQuery<Row>({ ...compiled, parameters });
  }

  private compile(): CompiledQuery<Row> {
    const slots = new Set<string>();
    const compiled = this.build(<K extends keyof Args & string>(name: K) => {
      slots.add(name);
      return `${SLOT_PREFIX}${name}` as Args[K];
    }).compile();
    const used = new Set<string>();
    this.sources = compiled.parameters.map((value) => {
      if (typeof value === 'string' && value.startsWith(SLOT_PREFIX)) {
        const name = value.slice(SLOT_PREFIX.length);
        used.add(name);
        return { slot: name };
      }
      return { value };
    });
    // A slot Kysely inlined into the SQL text (or dropped) would silently run with its first value.
    for (const name of slots) {
      if (!used.has(name))
        throw new Error(`query template: slot ${name} is not a parameter of ${compiled.sql}`);
    }
    this.compiled = compiled;
    return compiled;
  }
}
