#!/usr/bin/env node
// Import boundaries that keep the code whole (docs/architecture.md, "Rules that keep it whole"),
// checked by `npm run lint`:
//   server-layers     apps/server: http/ → services/ → repositories/ → db/, never upwards (a module's
//                     `*.routes.ts`, `*.service.ts`, `*.repository.ts` files rank as those layers)
//   server-protocols  dicom/, dimse/, hl7/, storage/, imaging/ never import http/ or services/
//   server-http-edge  nothing outside http/ imports http/ (dicomweb/ is the DICOMweb half of the HTTP
//                     edge, main.ts builds the app)
//   web-feature-api   apps/web: a feature is used from outside only through its index.ts
//   no-cycles         no runtime import cycle in the server or the web (type-only imports are erased
//                     at build time and do not count)
// Usage: node scripts/check-imports.mjs [repository root]; exits 1 and lists what breaks a rule.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const SERVER_SRC = 'apps/server/src';
const WEB_SRC = 'apps/web/src';

/** Server layers, highest first: a layer may import those below it, never those above. */
const LAYER_RANK = { http: 3, services: 2, repositories: 1, db: 0 };
const PROTOCOL_AREAS = new Set(['dicom', 'dimse', 'hl7', 'storage', 'imaging']);
/** Besides http/ itself, what may import http/. */
const HTTP_EDGE = new Set(['http', 'dicomweb', 'health', 'main.ts']);

const SOURCE = /\.(ts|tsx)$/;
const SKIPPED_DIRS = new Set(['node_modules', 'dist']);

function listSources(dir) {
  if (!fs.existsSync(dir)) return [];
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    if (SKIPPED_DIRS.has(entry.name)) continue;
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listSources(full));
    else if (SOURCE.test(entry.name) && !entry.name.endsWith('.d.ts')) out.push(full);
  }
  return out;
}

/** The relative imports of a file: `{ specifier, typeOnly, line }`, dynamic import() included. */
export function importsOf(file, text = fs.readFileSync(file, 'utf8')) {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found = [];
  const add = (node, specifier, typeOnly) => {
    if (!specifier.startsWith('.')) return;
    const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    found.push({ specifier, typeOnly, line });
  };
  const visit = (node) => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause;
      const typeOnly =
        !!clause &&
        (clause.isTypeOnly ||
          (!clause.name &&
            !!clause.namedBindings &&
            ts.isNamedImports(clause.namedBindings) &&
            clause.namedBindings.elements.length > 0 &&
            clause.namedBindings.elements.every((e) => e.isTypeOnly)));
      add(node, node.moduleSpecifier.text, typeOnly);
    } else if (
      ts.isExportDeclaration(node) &&
      node.moduleSpecifier &&
      ts.isStringLiteral(node.moduleSpecifier)
    ) {
      add(node, node.moduleSpecifier.text, node.isTypeOnly);
    } else if (
      ts.isCallExpression(node) &&
      node.expression.kind === ts.SyntaxKind.ImportKeyword &&
      node.arguments[0] &&
      ts.isStringLiteral(node.arguments[0])
    ) {
      add(node, node.arguments[0].text, false);
    } else if (ts.isImportTypeNode(node)) {
      const arg = node.argument;
      if (ts.isLiteralTypeNode(arg) && ts.isStringLiteral(arg.literal)) add(node, arg.literal.text, true);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The file a relative specifier names: `./x.js` is `./x.ts`; the web leaves extensions out. */
function resolve(from, specifier) {
  const base = path.resolve(path.dirname(from), specifier);
  const stem = base.replace(/\.(js|jsx|ts|tsx)$/, '');
  for (const candidate of [
    `${stem}.ts`,
    `${stem}.tsx`,
    path.join(base, 'index.ts'),
    path.join(base, 'index.tsx'),
  ]) {
    if (fs.existsSync(candidate) && fs.statSync(candidate).isFile()) return candidate;
  }
  return undefined;
}

/**
 * The top-level folder (or root file) of a file under `srcDir`. A workflow's files under
 * `modules/<name>/` keep the layer of the folder they came from, told by their name: `*.routes.ts` is
 * http, `*.service.ts` and `*.presenter.ts` are services, `*.repository.ts` and `*.sql.ts` are
 * repositories; its other files are the module's own area.
 */
function areaOf(srcDir, file) {
  const rel = path.relative(srcDir, file);
  if (rel.startsWith('..')) return undefined;
  const parts = rel.split(path.sep);
  if (parts[0] !== 'modules' || parts.length < 3) return parts[0];
  const name = parts[parts.length - 1];
  if (name === 'index.ts') return `modules/${parts[1]}/index.ts`;
  if (name.endsWith('.routes.ts')) return 'http';
  if (/\.(service|presenter)\.ts$/.test(name)) return 'services';
  if (/\.(repository|sql)\.ts$/.test(name)) return 'repositories';
  return `modules/${parts[1]}`;
}

function serverViolations(srcDir, from, to) {
  const a = areaOf(srcDir, from);
  const b = areaOf(srcDir, to);
  if (!a || !b || a === b) return [];
  const out = [];
  if (a in LAYER_RANK && b in LAYER_RANK && LAYER_RANK[b] > LAYER_RANK[a]) {
    out.push({
      rule: 'server-layers',
      why: `${a}/ may not import ${b}/ (http → services → repositories → db)`,
    });
  }
  if (PROTOCOL_AREAS.has(a) && (b === 'http' || b === 'services')) {
    out.push({ rule: 'server-protocols', why: `${a}/ may not import ${b}/` });
  }
  if (b === 'http' && !HTTP_EDGE.has(a) && !a.endsWith('/index.ts')) {
    out.push({ rule: 'server-http-edge', why: `only http/ may import http/ (${a} imports it)` });
  }
  return out;
}

/** `features/<name>` of a web file, or undefined outside features/. */
function featureOf(srcDir, file) {
  const parts = path.relative(srcDir, file).split(path.sep);
  return parts[0] === 'features' && parts.length > 2 ? parts[1] : undefined;
}

function webViolations(srcDir, from, to) {
  const target = featureOf(srcDir, to);
  if (!target || featureOf(srcDir, from) === target) return [];
  const publicApi = path.join(srcDir, 'features', target);
  if (path.dirname(to) === publicApi && /^index\.tsx?$/.test(path.basename(to))) return [];
  return [
    {
      rule: 'web-feature-api',
      why: `features/${target} is used only through its index.ts, not ${path.relative(publicApi, to)}`,
    },
  ];
}

/** Import cycles among runtime imports: each strongly connected component of more than one file. */
export function findCycles(graph) {
  let index = 0;
  const stack = [];
  const onStack = new Set();
  const indexOf = new Map();
  const low = new Map();
  const cycles = [];
  const strongConnect = (v) => {
    indexOf.set(v, index);
    low.set(v, index);
    index += 1;
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!indexOf.has(w)) {
        strongConnect(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), indexOf.get(w)));
    }
    if (low.get(v) === indexOf.get(v)) {
      const component = [];
      let w;
      do {
        w = stack.pop();
        onStack.delete(w);
        component.push(w);
      } while (w !== v);
      if (component.length > 1 || (graph.get(v) ?? new Set()).has(v)) cycles.push(component.sort());
    }
  };
  for (const v of graph.keys()) if (!indexOf.has(v)) strongConnect(v);
  return cycles;
}

/** Every violation under `root`: `{ rule, file, line, why }`, files relative to root. */
export function checkImports(root) {
  const violations = [];
  const rel = (f) => path.relative(root, f);
  for (const [srcRel, check] of [
    [SERVER_SRC, serverViolations],
    [WEB_SRC, webViolations],
  ]) {
    const srcDir = path.join(root, srcRel);
    const graph = new Map();
    for (const file of listSources(srcDir)) {
      const runtime = new Set();
      graph.set(file, runtime);
      for (const imp of importsOf(file)) {
        const target = resolve(file, imp.specifier);
        if (!target) continue;
        for (const v of check(srcDir, file, target))
          violations.push({ ...v, file: rel(file), line: imp.line });
        if (!imp.typeOnly && !/\.test\.tsx?$/.test(file)) runtime.add(target);
      }
    }
    for (const cycle of findCycles(graph)) {
      violations.push({
        rule: 'no-cycles',
        file: rel(cycle[0]),
        line: 1,
        why: `import cycle: ${cycle.map(rel).join(' ↔ ')}`,
      });
    }
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(process.argv[2] ?? path.join(path.dirname(fileURLToPath(import.meta.url)), '..'));
  const violations = checkImports(root);
  for (const v of violations) console.error(`${v.file}:${v.line}  ${v.rule}  ${v.why}`);
  if (violations.length) {
    console.error(
      `\n${violations.length} import boundary violation(s); see scripts/check-imports.mjs for the rules.`,
    );
    process.exit(1);
  }
}
