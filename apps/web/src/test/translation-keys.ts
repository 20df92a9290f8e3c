import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * Reads the web app's sources the way a translator would need them: every `t('…')` key, whether
 * the call picks a plural form, the calls whose key is computed, and JSX text or label attributes
 * written in English outside `t()`. Syntax only (no type checker), so the test stays fast.
 */
export const WEB_SRC = path.resolve(import.meta.dirname, '..');
/** The contract's sources: its message tables are keys the web app translates. */
export const CONTRACT_SRC = path.resolve(WEB_SRC, '../../../packages/contract/src');

export interface KeyUse {
  key: string;
  plural: boolean;
  where: string;
}

export interface SourceScan {
  keys: KeyUse[];
  /** `file: expression` of each `t(…)` whose first argument is not a literal. */
  computedCalls: string[];
  /** `file: text` of each JSX text node or label-like attribute written as a bare literal. */
  untranslated: string[];
  /** Every string literal of the sources, to tell a registered computed key still exists. */
  literals: Set<string>;
}

const LABEL_ATTRIBUTES = new Set(['label', 'title', 'placeholder', 'aria-label', 'helperText', 'alt']);

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ['test', 'locales'].includes(entry.name) ? [] : sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) && !entry.name.endsWith('.d.ts')
      ? [full]
      : [];
  });
}

/** The literal texts an argument can be: a string, or each branch of `cond ? 'a' : 'b'`. */
function literalTexts(node: ts.Expression): string[] | null {
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [node.text];
  if (ts.isParenthesizedExpression(node)) return literalTexts(node.expression);
  if (ts.isConditionalExpression(node)) {
    const a = literalTexts(node.whenTrue);
    const b = literalTexts(node.whenFalse);
    return a && b ? [...a, ...b] : null;
  }
  return null;
}

function hasCount(node: ts.Expression | undefined): boolean {
  return (
    !!node &&
    ts.isObjectLiteralExpression(node) &&
    node.properties.some((p) => p.name !== undefined && ts.isIdentifier(p.name) && p.name.text === 'count')
  );
}

export function scanSources(roots: readonly string[] = [WEB_SRC]): SourceScan {
  const scan: SourceScan = { keys: [], computedCalls: [], untranslated: [], literals: new Set() };
  for (const root of roots) {
    for (const file of sourceFiles(root)) {
      const rel = path.relative(WEB_SRC, file);
      const kind = file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS;
      const source = ts.createSourceFile(
        file,
        fs.readFileSync(file, 'utf8'),
        ts.ScriptTarget.Latest,
        true,
        kind,
      );
      const visit = (node: ts.Node): void => {
        if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node))
          scan.literals.add(node.text);
        if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 't') {
          const [first, values] = node.arguments;
          const texts = first ? literalTexts(first) : null;
          if (texts) {
            const plural = hasCount(values);
            for (const key of texts) scan.keys.push({ key, plural, where: rel });
          } else if (first) {
            scan.computedCalls.push(`${rel}: ${first.getText(source)}`);
          }
        }
        if (ts.isJsxText(node)) {
          const text = node.text.replace(/\s+/g, ' ').trim();
          if (/\p{L}{2}/u.test(text)) scan.untranslated.push(`${rel}: ${text}`);
        }
        if (ts.isJsxAttribute(node) && LABEL_ATTRIBUTES.has(node.name.getText(source)) && node.initializer) {
          const init = node.initializer;
          const literal = ts.isStringLiteral(init)
            ? init
            : ts.isJsxExpression(init) && init.expression && literalTexts(init.expression)
              ? init.expression
              : null;
          if (literal)
            scan.untranslated.push(`${rel}: ${literal.getText(source).replace(/^["'`]|["'`]$/g, '')}`);
        }
        ts.forEachChild(node, visit);
      };
      visit(source);
    }
  }
  return scan;
}
