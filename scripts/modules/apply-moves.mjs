// The engine of the server's file moves (move-to-modules.mjs, the one-off move into modules, and
// move-files.mjs, for single files since): ts-morph rewrites each moved file and every relative import
// of it, in src and in everything apps/server/tsconfig.test.json covers (test/, bench/) and the
// browser tests. At the end it lists the src files no entry maps, so nothing moves by accident.
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project } from 'ts-morph';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'apps/server');
export const SRC = path.join(SERVER, 'src');

/** `table` (old → new, relative to apps/server/src) with each colocated `*.test.ts` following its subject. */
export function withColocatedTests(table) {
  for (const [from, to] of [...table]) {
    const test = from.replace(/\.ts$/, '.test.ts');
    if (fs.existsSync(path.join(SRC, test))) table.set(test, to.replace(/\.ts$/, '.test.ts'));
  }
  return table;
}

function listFiles(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) out.push(...listFiles(full));
    else out.push(full);
  }
  return out;
}

/**
 * Every TypeScript file that may import server src: src itself, the server's tests, benches and configs,
 * and the browser tests (they import test support files, which import src).
 */
function projectFiles() {
  const skip = new Set(['node_modules', 'dist', 'screenshots']);
  const walk = (dir) =>
    fs.existsSync(dir)
      ? fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
          const full = path.join(dir, entry.name);
          if (entry.isDirectory()) return skip.has(entry.name) ? [] : walk(full);
          return /\.(ts|mts|tsx)$/.test(entry.name) && !entry.name.endsWith('.d.ts') ? [full] : [];
        })
      : [];
  return [...walk(SERVER), ...walk(path.join(ROOT, 'e2e'))];
}

/** Moves every file of `table` (old → new, relative to apps/server/src); with `dryRun`, only says what it would. */
export function applyMoves(table, { dryRun }) {
  const targets = new Set();
  for (const [from, to] of table) {
    if (!fs.existsSync(path.join(SRC, from))) throw new Error(`mapped file missing: ${from}`);
    if (targets.has(to)) throw new Error(`two files map to ${to}`);
    if (fs.existsSync(path.join(SRC, to))) throw new Error(`target exists: ${to}`);
    targets.add(to);
  }

  /**
   * What ts-morph's `SourceFile.move()` does, for the whole table at once (moving file by file re-resolves
   * the program after each move, which takes hours on this tree): each relative module specifier (imports,
   * re-exports, `import()` and `import('…')` types) of every file is recomputed from the file's new place
   * to its target's new place, keeping the specifier's extension (`.js`, as the code writes them).
   */
  const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
  const newPlace = new Map([...table].map(([from, to]) => [path.join(SRC, from), path.join(SRC, to)]));
  const placeOf = (file) => newPlace.get(file) ?? file;
  /** A file that names no moved file and does not move itself keeps its text: parsing it is wasted time. */
  const movedStems = [...table.keys()].map((from) => path.basename(from).replace(/\.ts$/, ''));
  const mayChange = (file) =>
    newPlace.has(file) || movedStems.some((stem) => fs.readFileSync(file, 'utf8').includes(`/${stem}.`));
  let rewritten = 0;
  for (const fileName of projectFiles().filter(mayChange)) {
    const sourceFile = project.addSourceFileAtPath(fileName);
    const from = fileName;
    const to = placeOf(from);
    let changed = false;
    for (const literal of sourceFile.getImportStringLiterals()) {
      const specifier = literal.getLiteralValue();
      if (!specifier.startsWith('.')) continue;
      const target = path.resolve(path.dirname(from), specifier);
      const extension = path.extname(specifier);
      const asTs = extension === '.js' ? target.slice(0, -3) + '.ts' : target;
      const newTarget = newPlace.has(asTs)
        ? newPlace.get(asTs).slice(0, -3) + (extension === '.js' ? '.js' : '.ts')
        : target;
      if (newTarget === target && to === from) continue;
      let next = path.relative(path.dirname(to), newTarget).split(path.sep).join('/');
      if (!next.startsWith('.')) next = `./${next}`;
      if (next !== specifier) {
        literal.setLiteralValue(next);
        changed = true;
      }
    }
    if (dryRun) continue;
    if (changed || to !== from) {
      fs.mkdirSync(path.dirname(to), { recursive: true });
      fs.writeFileSync(to, sourceFile.getFullText());
      rewritten += 1;
    }
    if (to !== from) fs.unlinkSync(from);
  }
  if (dryRun) for (const [from, to] of table) console.log(`${from} → ${to}`);
  else {
    // The folders the moves emptied go too.
    for (const from of table.keys()) {
      const dir = path.dirname(path.join(SRC, from));
      if (fs.existsSync(dir) && fs.readdirSync(dir).length === 0) fs.rmdirSync(dir);
    }
    console.log(`${rewritten} files written`);
  }

  const moved = new Set(dryRun ? table.keys() : table.values());
  const unmapped = listFiles(SRC)
    .map((f) => path.relative(SRC, f))
    .filter((f) => !moved.has(f) && !f.startsWith('db/migrations/'));
  console.log(
    `${table.size} files ${dryRun ? 'to move' : 'moved'}; not mapped, staying in place (${unmapped.length}):`,
  );
  for (const f of unmapped.sort()) console.log(`  ${f}`);
}
