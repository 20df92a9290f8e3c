#!/usr/bin/env node
// Import boundaries that keep the code whole (docs/architecture.md, "Rules that keep it whole"),
// checked by `npm run lint`:
//   server-folders    apps/server: every top-level folder or file of src is ranked below (the
//                     composition root, the kernel, or modules/): a new one is placed on purpose
//   server-layers     apps/server: http/ → services/ → repositories/ → db/, never upwards (a module's
//                     `*.routes.ts`, `*.service.ts`, `*.repository.ts` files rank as those layers)
//   server-protocols  dicom/, dimse/, hl7/, storage/, imaging/ never import http/ or services/
//   server-http-edge  nothing outside http/ imports http/ (dicomweb/ is the DICOMweb half of the HTTP
//                     edge, health/ the probes, main.ts builds the app; module routes and doors may)
//   server-kernel     the kernel never imports a module: only the composition root (main.ts,
//                     context.ts, http/app.ts, seed/) wires modules in
//   server-module-door  a module is used from outside only through its index.ts
//   web-feature-api   apps/web: a feature is used from outside only through its index.ts
//   web-feature-app   apps/web: a feature never imports the app shell (app/), which composes features
//   no-cycles         no import cycle in the server or the web, type-only imports included (a loop of
//                     types is a loop of knowledge)
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
/** The kernel: shared by every workflow, it never imports a module (docs/architecture.md). */
const KERNEL = new Set([
  'audit',
  'config.ts',
  'db',
  'dicom',
  'dicomweb',
  'dimse',
  'domain',
  'health',
  'hl7',
  'http',
  'imaging',
  'ingest',
  'jobs',
  'kernel',
  'mail',
  'metrics',
  'notifications',
  'policies',
  'repositories',
  'runtime-flags.ts',
  'security',
  'services',
  'storage',
]);
/** What wires modules into the kernel: it may import every module's door. */
const COMPOSITION_ROOT = new Set(['main.ts', 'context.ts', 'seed', 'http/app.ts']);
/**
 * Kernel → module imports that wait for their inversion (issue 30): each names the one file and the
 * module it may still reach. Remove an entry with its inversion; never add one.
 */
const PENDING_INVERSIONS = new Set([]);
/**
 * Loops that exist only through type imports, counted since issue 30 and listed as debt in
 * check-imports.type-cycles.json (file paths): a loop whose every file is listed there passes; one
 * file more fails. The list may only shrink: `--write-type-cycles` rewrites it from today's tree.
 */
const TYPE_CYCLE_BASELINE = path.join(
  path.dirname(fileURLToPath(import.meta.url)),
  'check-imports.type-cycles.json',
);
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
  // The door and the module's composition file (`<name>.module.ts`, create<Name>Module) wire its parts.
  if (name === 'index.ts' || name.endsWith('.module.ts')) return `modules/${parts[1]}/index.ts`;
  if (name.endsWith('.routes.ts')) return 'http';
  if (/\.(service|presenter)\.ts$/.test(name)) return 'services';
  if (/\.(repository|sql)\.ts$/.test(name)) return 'repositories';
  return `modules/${parts[1]}`;
}

/** `{ top, module }` of a server file: its top-level folder or file, and its module if any. */
function placeOf(srcDir, file) {
  const parts = path.relative(srcDir, file).split(path.sep);
  const module = parts[0] === 'modules' && parts.length > 2 ? parts[1] : undefined;
  const rel = parts.join('/');
  return { top: parts[0], module, rel, root: COMPOSITION_ROOT.has(parts[0]) || COMPOSITION_ROOT.has(rel) };
}

function serverViolations(srcDir, from, to) {
  const out = [];
  const source = placeOf(srcDir, from);
  const target = placeOf(srcDir, to);
  if (target.module && source.module !== target.module) {
    if (KERNEL.has(source.top) && !source.root && !PENDING_INVERSIONS.has(`${source.rel} → ${target.module}`))
      out.push({
        rule: 'server-kernel',
        why: `the kernel (${source.top}/) may not import modules/${target.module}`,
      });
    if (path.basename(to) !== 'index.ts' || path.dirname(to) !== path.join(srcDir, 'modules', target.module))
      out.push({
        rule: 'server-module-door',
        why: `modules/${target.module} is used only through its index.ts, not ${path.relative(path.join(srcDir, 'modules', target.module), to)}`,
      });
  }
  const a = areaOf(srcDir, from);
  const b = areaOf(srcDir, to);
  if (!a || !b || a === b) return out;
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
  if (featureOf(srcDir, from) && path.relative(srcDir, to).split(path.sep)[0] === 'app')
    return [
      {
        rule: 'web-feature-app',
        why: `a feature may not import the app shell (${path.relative(srcDir, to)})`,
      },
    ];
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

/** Import cycles, type-only imports included: each strongly connected component of more than one file. */
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

/** The files of today's type-only loops (TYPE_CYCLE_BASELINE), or none. */
export function typeCycleBaseline() {
  return new Set(
    fs.existsSync(TYPE_CYCLE_BASELINE) ? JSON.parse(fs.readFileSync(TYPE_CYCLE_BASELINE, 'utf8')) : [],
  );
}

/**
 * Every violation under `root`: `{ rule, file, line, why }`, files relative to root. `knownTypeCycles`:
 * the files of type-only loops tolerated as debt. `typeCycleFiles` receives the files of every loop.
 */
export function checkImports(root, knownTypeCycles = new Set(), typeCycleFiles = []) {
  const violations = [];
  const rel = (f) => path.relative(root, f);
  for (const [srcRel, check] of [
    [SERVER_SRC, serverViolations],
    [WEB_SRC, webViolations],
  ]) {
    const srcDir = path.join(root, srcRel);
    const graph = new Map();
    const runtimeGraph = new Map();
    for (const file of listSources(srcDir)) {
      const runtime = new Set();
      const all = new Set();
      graph.set(file, all);
      runtimeGraph.set(file, runtime);
      for (const imp of importsOf(file)) {
        const target = resolve(file, imp.specifier);
        if (!target) continue;
        for (const v of check(srcDir, file, target))
          violations.push({ ...v, file: rel(file), line: imp.line });
        if (/\.test\.tsx?$/.test(file)) continue;
        // The AppContext type every route is handed: the one loop of types still allowed, until the
        // composition root hands each module only its own needs (issue 30).
        if (imp.typeOnly && path.relative(srcDir, target) === 'context.ts') continue;
        all.add(target);
        if (!imp.typeOnly) runtime.add(target);
      }
    }
    if (srcRel === SERVER_SRC && fs.existsSync(srcDir)) {
      for (const entry of fs.readdirSync(srcDir)) {
        if (!SOURCE.test(entry) && !fs.statSync(path.join(srcDir, entry)).isDirectory()) continue;
        if (KERNEL.has(entry) || COMPOSITION_ROOT.has(entry) || entry === 'modules') continue;
        violations.push({
          rule: 'server-folders',
          file: rel(path.join(srcDir, entry)),
          line: 1,
          why: `${entry} is neither kernel, composition root nor modules/: rank it in scripts/check-imports.mjs`,
        });
      }
    }
    const runtimeCycles = new Set();
    for (const cycle of findCycles(runtimeGraph)) {
      runtimeCycles.add(cycle.map(rel).join('\n'));
      violations.push({
        rule: 'no-cycles',
        file: rel(cycle[0]),
        line: 1,
        why: `import cycle: ${cycle.map(rel).join(' ↔ ')}`,
      });
    }
    for (const cycle of findCycles(graph)) {
      typeCycleFiles.push(...cycle.map(rel));
      if (cycle.every((f) => knownTypeCycles.has(rel(f)))) continue;
      if (runtimeCycles.has(cycle.map(rel).join('\n'))) continue; // reported above already
      violations.push({
        rule: 'no-cycles',
        file: rel(cycle.find((f) => !knownTypeCycles.has(rel(f))) ?? cycle[0]),
        line: 1,
        why: `import cycle through type imports: ${cycle.map(rel).join(' ↔ ')}`,
      });
    }
  }
  return violations;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const root = path.resolve(
    process.argv.slice(2).find((a) => !a.startsWith('--')) ??
      path.join(path.dirname(fileURLToPath(import.meta.url)), '..'),
  );
  const typeCycleFiles = [];
  const violations = checkImports(root, typeCycleBaseline(), typeCycleFiles);
  if (process.argv.includes('--write-type-cycles')) {
    fs.writeFileSync(
      TYPE_CYCLE_BASELINE,
      `${JSON.stringify([...new Set(typeCycleFiles)].sort(), null, 2)}\n`,
    );
    console.error(`${TYPE_CYCLE_BASELINE}: ${new Set(typeCycleFiles).size} files in type-only loops`);
  }
  for (const v of violations) console.error(`${v.file}:${v.line}  ${v.rule}  ${v.why}`);
  if (violations.length) {
    console.error(
      `\n${violations.length} import boundary violation(s); see scripts/check-imports.mjs for the rules.`,
    );
    process.exit(1);
  }
}
