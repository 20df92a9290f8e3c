#!/usr/bin/env node
// Gives each server module its one door (issue 30): `modules/<name>/index.ts` re-exports what code
// outside the module imports from it, and those imports are rewritten to go through the door. The
// module policies leave policies/index.ts (the kernel's policy core no longer re-exports them): their
// users import them from their own module's file, or from the owning module's door.
// Run once after move-to-modules.mjs; running it again adds what new outside imports need.
// Usage: node scripts/modules/module-doors.mjs
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project } from 'ts-morph';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SRC = path.join(ROOT, 'apps/server/src');
const POLICY_INDEX = path.join(SRC, 'policies/index.ts');

const project = new Project({ skipAddingFilesFromTsConfig: true, skipFileDependencyResolution: true });
project.addSourceFilesAtPaths([`${SRC}/**/*.ts`, `!${SRC}/db/migrations/**`]);

const moduleOf = (file) => {
  const parts = path.relative(SRC, file).split(path.sep);
  return parts[0] === 'modules' && parts.length > 2 ? parts[1] : undefined;
};
const doorOf = (module) => path.join(SRC, 'modules', module, 'index.ts');
const resolveSpecifier = (from, specifier) =>
  path.resolve(path.dirname(from), specifier).replace(/\.js$/, '.ts');
const specifierTo = (from, target) => {
  const rel = path.relative(path.dirname(from), target).replace(/\.ts$/, '.js').split(path.sep).join('/');
  return rel.startsWith('.') ? rel : `./${rel}`;
};

// 1. Module policies re-exported by policies/index.ts: name → the module file that defines it.
const policyIndex = project.getSourceFileOrThrow(POLICY_INDEX);
const modulePolicyOf = new Map();
for (const declaration of policyIndex.getExportDeclarations()) {
  const target = resolveSpecifier(POLICY_INDEX, declaration.getModuleSpecifierValue());
  if (!moduleOf(target)) continue;
  for (const name of project.getSourceFileOrThrow(target).getExportedDeclarations().keys())
    modulePolicyOf.set(name, target);
  declaration.remove();
}

/** `{ name, typeOnly }` imported by one declaration. */
const namesOf = (declaration) =>
  declaration.getNamedImports().map((named) => ({
    name: named.getName(),
    alias: named.getAliasNode()?.getText(),
    typeOnly: declaration.isTypeOnly() || named.isTypeOnly(),
  }));

/** Rewrites one file's imports: `target(name)` gives where each imported name should now come from. */
function regroup(sourceFile, declaration, targetOf) {
  const from = sourceFile.getFilePath();
  const groups = new Map();
  for (const entry of namesOf(declaration)) {
    const target = targetOf(entry.name);
    if (!groups.has(target)) groups.set(target, []);
    groups.get(target).push(entry);
  }
  if (
    groups.size === 1 &&
    [...groups.keys()][0] === resolveSpecifier(from, declaration.getModuleSpecifierValue())
  )
    return;
  const index = declaration.getChildIndex();
  declaration.remove();
  let at = index;
  for (const [target, entries] of groups) {
    const allTypes = entries.every((e) => e.typeOnly);
    sourceFile.insertImportDeclaration(at++, {
      moduleSpecifier: specifierTo(from, target),
      isTypeOnly: allTypes,
      namedImports: entries.map((e) => ({
        name: e.name,
        alias: e.alias,
        isTypeOnly: !allTypes && e.typeOnly,
      })),
    });
  }
}

// 2. Users of a module policy: from the module's own file inside it, from its door outside.
const doorExports = new Map(); // module → Map(target file → Map(name → typeOnly))
const needAtDoor = (module, target, name, typeOnly) => {
  if (!doorExports.has(module)) doorExports.set(module, new Map());
  const files = doorExports.get(module);
  if (!files.has(target)) files.set(target, new Map());
  const names = files.get(target);
  names.set(name, (names.get(name) ?? true) && typeOnly);
};
for (const sourceFile of project.getSourceFiles()) {
  const from = sourceFile.getFilePath();
  for (const declaration of sourceFile.getImportDeclarations()) {
    if (resolveSpecifier(from, declaration.getModuleSpecifierValue()) !== POLICY_INDEX) continue;
    const names = namesOf(declaration);
    if (!names.some((e) => modulePolicyOf.has(e.name))) continue;
    for (const e of names) {
      const owner = modulePolicyOf.get(e.name);
      if (owner && moduleOf(owner) !== moduleOf(from)) needAtDoor(moduleOf(owner), owner, e.name, e.typeOnly);
    }
    regroup(sourceFile, declaration, (name) => {
      const owner = modulePolicyOf.get(name);
      if (!owner) return POLICY_INDEX;
      return moduleOf(owner) === moduleOf(from) ? owner : doorOf(moduleOf(owner));
    });
  }
}

// 3. Every other import of a module's internals from outside it goes through the door.
for (const sourceFile of project.getSourceFiles()) {
  const from = sourceFile.getFilePath();
  if (from.endsWith('.test.ts') && moduleOf(from)) continue;
  for (const declaration of sourceFile.getImportDeclarations()) {
    const specifier = declaration.getModuleSpecifierValue();
    if (!specifier.startsWith('.')) continue;
    const target = resolveSpecifier(from, specifier);
    const module = moduleOf(target);
    if (!module || module === moduleOf(from) || target === doorOf(module)) continue;
    for (const e of namesOf(declaration)) needAtDoor(module, target, e.name, e.typeOnly);
    if (declaration.getNamespaceImport() || declaration.getDefaultImport())
      throw new Error(`${from}: namespace or default import of ${target}`);
    regroup(sourceFile, declaration, () => doorOf(module));
  }
}

// 4. Each door: re-exports grouped by file, types with `export type`, kept sorted.
for (const [module, files] of doorExports) {
  const door = doorOf(module);
  const existing = project.getSourceFile(door);
  const previous = new Map();
  if (existing) {
    for (const declaration of existing.getExportDeclarations()) {
      const target = resolveSpecifier(door, declaration.getModuleSpecifierValue());
      for (const named of declaration.getNamedExports())
        (previous.get(target) ?? previous.set(target, new Map()).get(target)).set(
          named.getName(),
          declaration.isTypeOnly() || named.isTypeOnly(),
        );
    }
  }
  for (const [target, names] of files)
    for (const [name, typeOnly] of names) {
      const known = previous.get(target) ?? previous.set(target, new Map()).get(target);
      known.set(name, (known.get(name) ?? true) && typeOnly);
    }
  const lines = [];
  for (const target of [...previous.keys()].sort()) {
    const names = [...previous.get(target)].sort(([a], [b]) => a.localeCompare(b));
    const values = names.filter(([, t]) => !t).map(([n]) => n);
    const types = names.filter(([, t]) => t).map(([n]) => n);
    const spec = specifierTo(door, target);
    if (values.length) lines.push(`export { ${values.join(', ')} } from '${spec}';`);
    if (types.length) lines.push(`export type { ${types.join(', ')} } from '${spec}';`);
  }
  const header = existing
    ? existing
        .getFullText()
        .split('\n')
        .filter((l) => !l.startsWith('export '))
        .join('\n')
        .trim()
    : `/** The ${module} module's one door: what the rest of the server may use of it (see README.md). */`;
  fs.writeFileSync(door, `${header}\n${lines.join('\n')}\n`);
  project.getSourceFile(door)?.forget();
}
for (const sourceFile of project.getSourceFiles()) if (!sourceFile.isSaved()) sourceFile.saveSync();
console.log([...doorExports.keys()].map((m) => `modules/${m}/index.ts`).join('\n'));
