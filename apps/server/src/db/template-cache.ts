import { QueryTemplate } from './query-template.js';

/**
 * Query templates by key (a search's filters, say), for queries whose SQL depends on more than
 * their parameters' values: the key must hold everything the SQL text depends on. Beyond `size`
 * the least recently used is dropped.
 */
export class TemplateCache<Args extends Record<string, unknown>, Row> {
  private readonly templates = new Map<string, QueryTemplate<Args, Row>>();

  constructor(private readonly size: number) {}

  get(
    key: string,
    build: ConstructorParameters<typeof QueryTemplate<Args, Row>>[0],
  ): QueryTemplate<Args, Row> {
    let template = this.templates.get(key);
    if (template) {
      // Most recently used last, so the first is the one to drop.
      this.templates.delete(key);
    } else {
      template = new QueryTemplate<Args, Row>(build);
      if (this.templates.size >= this.size) this.templates.delete(this.templates.keys().next().value!);
    }
    this.templates.set(key, template);
    return template;
  }
}
