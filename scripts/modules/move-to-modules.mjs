#!/usr/bin/env node
// One-off move of apps/server/src into one folder per workflow (issue 30, decision 0057).
// Every move is listed below (old path → new path, relative to apps/server/src); ts-morph moves each
// file and rewrites every relative import of it, in src and in everything apps/server/tsconfig.test.json
// covers (test/, bench/). Colocated `*.test.ts` files follow their subject. At the end the script lists
// the src files that no entry maps and that stay where they are, so nothing moves by accident.
// Usage: node scripts/modules/move-to-modules.mjs [--dry-run]
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Project } from 'ts-morph';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = path.join(ROOT, 'apps/server');
const SRC = path.join(SERVER, 'src');
const dryRun = process.argv.includes('--dry-run');

/** Files of a module: `[old path, new file name or path inside the module]` (same name when absent). */
const MODULES = {
  studies: [
    'http/routes/study.routes.ts',
    'http/routes/study-marks.routes.ts',
    'http/routes/study-schema.routes.ts',
    'http/routes/study-thumbnails.routes.ts',
    'http/routes/study-trash.routes.ts',
    'http/routes/study-viewer.routes.ts',
    'http/routes/tag.routes.ts',
    'http/routes/attachment.routes.ts',
    'http/routes/download.routes.ts',
    'http/routes/storage.routes.ts',
    'http/routes/wrap.routes.ts',
    'http/routes/upload-session.routes.ts',
    'services/attachment-types.ts',
    'services/attachment.service.ts',
    'services/download.service.ts',
    'services/study-file-editor.ts',
    'services/study-marks.service.ts',
    'services/study-schema.service.ts',
    'services/study-trash.service.ts',
    'services/study-upload.service.ts',
    'services/study.presenter.ts',
    'services/study.service.ts',
    'services/wrap.service.ts',
    'services/purge.service.ts',
    'repositories/attachments.repository.ts',
    'repositories/study-files.repository.ts',
    'repositories/tags.repository.ts',
    'repositories/purge.repository.ts',
    'jobs/purge-timer.ts',
  ],
  sharing: [
    'http/routes/study-share.routes.ts',
    'http/routes/study-send.routes.ts',
    'http/routes/send-public.routes.ts',
    'http/routes/link.routes.ts',
    'http/routes/link-public.routes.ts',
    'services/share.service.ts',
    'services/send.service.ts',
    'services/send-access.service.ts',
    'services/link.service.ts',
    'services/link-access.service.ts',
    'services/public-link-guard.ts',
    'services/attempt-limiter.ts',
    'repositories/shares.repository.ts',
    'repositories/sends.repository.ts',
    'repositories/links.repository.ts',
    'policies/links.ts',
    'policies/share-codes.ts',
    'notifications/share-notifier.ts',
  ],
  gatekeeper: [
    'http/routes/nomination.routes.ts',
    'http/routes/order.routes.ts',
    'http/routes/study-report.routes.ts',
    'services/nomination.service.ts',
    'services/nomination-process.service.ts',
    'services/order.service.ts',
    'services/hl7-inbox.service.ts',
    'services/study-report.service.ts',
    'repositories/nominations.repository.ts',
    'repositories/nomination-process.repository.ts',
    'repositories/orders.repository.ts',
    'repositories/hl7-results.repository.ts',
    'repositories/study-reports.repository.ts',
    'policies/nominations.ts',
    'policies/orders.ts',
    'jobs/nomination-process-job.ts',
    'notifications/nomination-notifier.ts',
    'pacs/worklist-query.ts',
  ],
  pacs: [
    'http/routes/destination.routes.ts',
    'http/routes/dicom-node.routes.ts',
    'http/routes/hl7-sender.routes.ts',
    'services/destination.service.ts',
    'services/destination-search.service.ts',
    'services/patient-search.service.ts',
    'services/study-push.service.ts',
    'services/dicom-node.service.ts',
    'services/hl7-sender.service.ts',
    'services/calling-ae-titles.service.ts',
    'repositories/destinations.repository.ts',
    'repositories/destination-searches.repository.ts',
    'repositories/study-pushes.repository.ts',
    'repositories/calling-ae-titles.repository.ts',
    'repositories/hl7-senders.repository.ts',
    'policies/destinations.ts',
    'pacs/delivery-router.ts',
    'pacs/destination-job.ts',
    'pacs/pacs-client.ts',
    'pacs/push-job.ts',
    'pacs/retrieve-job.ts',
    'pacs/search-job.ts',
    'pacs/search-query.ts',
    'jobs/destination-echo-timer.ts',
  ],
  routing: [
    'http/routes/routing.routes.ts',
    'http/routes/webhook.routes.ts',
    'services/routing-engine.ts',
    'services/routing-conditions.ts',
    'services/routing-rule.service.ts',
    'services/webhook.service.ts',
    'services/user-pattern.ts',
    'repositories/routing-rules.repository.ts',
    'repositories/webhooks.repository.ts',
  ],
  admin: [
    'http/routes/account.routes.ts',
    'http/routes/account-user.routes.ts',
    'http/routes/customfield.routes.ts',
    'http/routes/group-admin.routes.ts',
    'http/routes/label.routes.ts',
    'http/routes/role.routes.ts',
    'http/routes/audit.routes.ts',
    'http/routes/namespace.routes.ts',
    'http/routes/setting.routes.ts',
    'services/account-user.service.ts',
    'services/account-settings.service.ts',
    'services/custom-field.service.ts',
    'services/group-admin.service.ts',
    'services/group-config.service.ts',
    'services/label.service.ts',
    'services/role.service.ts',
    'services/audit-log.service.ts',
    'repositories/account-users.repository.ts',
    'repositories/custom-fields.repository.ts',
    'repositories/group-admin.repository.ts',
    'repositories/group-configs.repository.ts',
    'repositories/label-overrides.repository.ts',
    'repositories/roles.repository.ts',
    'policies/account-users.ts',
  ],
  accounts: [
    'http/routes/session.routes.ts',
    'http/routes/user.routes.ts',
    'http/routes/user-event.routes.ts',
    'services/session.service.ts',
    'services/profile.service.ts',
    'services/password-reset.service.ts',
    'services/notification-preferences.service.ts',
    'services/login-throttle.ts',
    'repositories/sessions.repository.ts',
    'repositories/password-resets.repository.ts',
    'repositories/auth-failures.repository.ts',
  ],
};

/** Kernel files that change folder (services/ empties: what the kernel itself needs goes to a kernel folder). */
const KERNEL = {
  'services/audit.service.ts': 'audit/audit.service.ts',
  'repositories/audit.repository.ts': 'audit/audit.repository.ts',
  'services/tokens.ts': 'security/tokens.ts',
  'services/passwords.ts': 'security/passwords.ts',
  'services/outbound-guard.ts': 'security/outbound-guard.ts',
  'services/embedded-ipv4.ts': 'security/embedded-ipv4.ts',
  'services/dicom-peer-guard.ts': 'security/dicom-peer-guard.ts',
  'services/attempts-in-flight.ts': 'security/attempts-in-flight.ts',
  'services/given-fields.ts': 'domain/given-fields.ts',
  'services/study-query.ts': 'domain/study-query.ts',
  'services/time.ts': 'domain/time.ts',
  'services/readiness.service.ts': 'health/readiness.service.ts',
  'repositories/health.repository.ts': 'health/health.repository.ts',
  'http/routes/health.routes.ts': 'health/health.routes.ts',
  'services/viewer-token.service.ts': 'dicomweb/viewer-token.service.ts',
  'repositories/viewer-tokens.repository.ts': 'dicomweb/viewer-tokens.repository.ts',
  'jobs/harvest-mail-timer.ts': 'notifications/harvest-mail-timer.ts',
  'jobs/upload-sweep-timer.ts': 'ingest/upload-sweep-timer.ts',
};

/** The whole table: old → new, relative to src, colocated tests included. */
export function moveTable() {
  const table = new Map();
  for (const [module, files] of Object.entries(MODULES)) {
    for (const file of files) table.set(file, `modules/${module}/${path.basename(file)}`);
  }
  for (const [from, to] of Object.entries(KERNEL)) table.set(from, to);
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

const table = moveTable();
const targets = new Set();
for (const [from, to] of table) {
  if (!fs.existsSync(path.join(SRC, from))) throw new Error(`mapped file missing: ${from}`);
  if (targets.has(to)) throw new Error(`two files map to ${to}`);
  if (fs.existsSync(path.join(SRC, to))) throw new Error(`target exists: ${to}`);
  targets.add(to);
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
  for (const old of ['services', 'pacs', 'http/routes']) {
    const dir = path.join(SRC, old);
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
