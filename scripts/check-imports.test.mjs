// Each import rule of check-imports.mjs, on a small tree written for it: the clean tree passes,
// and one fixture per rule breaks exactly that rule. Run with `node --test scripts/`.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { after, describe, it } from 'node:test';
import { checkImports } from './check-imports.mjs';

const roots = [];
after(() => {
  for (const root of roots) fs.rmSync(root, { recursive: true, force: true });
});

/** A repository tree of `files` (path → source). */
function tree(files) {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'check-imports-'));
  roots.push(root);
  for (const [file, text] of Object.entries(files)) {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), text);
  }
  return root;
}

/** A clean server and web, which the fixtures below each break in one way. */
const CLEAN = {
  'apps/server/src/main.ts': "import { buildHttpApp } from './http/app.js';\nvoid buildHttpApp;\n",
  'apps/server/src/http/app.ts':
    "import { StudyService } from '../services/study.service.js';\nexport const buildHttpApp = () => new StudyService();\n",
  'apps/server/src/http/params.ts': 'export type Params = Record<string, string>;\n',
  'apps/server/src/services/study.service.ts':
    "import { StudiesRepository } from '../repositories/studies.repository.js';\nexport class StudyService { repo = new StudiesRepository(); }\n",
  'apps/server/src/repositories/studies.repository.ts':
    "import { db } from '../db/index.js';\nexport class StudiesRepository { db = db; }\n",
  'apps/server/src/db/index.ts': 'export const db = {};\n',
  'apps/server/src/domain/errors.ts': 'export class DomainError extends Error {}\n',
  'apps/server/src/dimse/scp.ts':
    "import { DomainError } from '../domain/errors.js';\nexport { DomainError };\n",
  'apps/server/src/dicomweb/qido.ts':
    "import type { Params } from '../http/params.js';\nexport type Q = Params;\n",
  'apps/web/src/features/search/index.ts': "export { SearchBar } from './components/SearchBar';\n",
  'apps/web/src/features/search/components/SearchBar.tsx': 'export const SearchBar = () => null;\n',
  'apps/web/src/features/studies/components/List.tsx':
    "import { SearchBar } from '../../search';\nimport { Row } from './Row';\nexport const List = () => [SearchBar, Row];\n",
  'apps/web/src/features/studies/components/Row.tsx': 'export const Row = () => null;\n',
  'apps/server/src/context.ts':
    "import { gatekeeperRoutes } from './modules/gatekeeper/index.js';\nexport type AppContext = { routes: typeof gatekeeperRoutes };\n",
  'apps/server/src/modules/gatekeeper/index.ts':
    "export { gatekeeperRoutes } from './nomination.routes.js';\n",
  'apps/server/src/modules/gatekeeper/nomination.routes.ts':
    "import type { AppContext } from '../../context.js';\nimport { NominationService } from './nomination.service.js';\nexport const gatekeeperRoutes = (ctx?: AppContext) => [ctx, NominationService];\n",
  'apps/server/src/modules/gatekeeper/nomination.service.ts':
    "import { DomainError } from '../../domain/errors.js';\nexport class NominationService extends DomainError {}\n",
  'apps/web/src/app/App.tsx':
    "import { SearchBar } from '../features/search/index';\nexport const App = SearchBar;\n",
};

const rulesOf = (root) => checkImports(root, new Set()).map((v) => `${v.rule} ${v.file}`);

describe('check-imports', () => {
  it('passes a tree that keeps every rule (a route may take the AppContext type)', () => {
    assert.deepEqual(rulesOf(tree(CLEAN)), []);
  });

  it('server-layers: a repository importing a service fails', () => {
    const root = tree({
      ...CLEAN,
      'apps/server/src/repositories/ingest.repository.ts':
        "import { newUuid } from '../services/tokens.js';\nexport const id = newUuid;\n",
      'apps/server/src/services/tokens.ts': 'export const newUuid = () => "x";\n',
    });
    assert.deepEqual(rulesOf(root), ['server-layers apps/server/src/repositories/ingest.repository.ts']);
  });

  it('server-layers: db importing a repository, or a service importing a route, fails', () => {
    const root = tree({
      ...CLEAN,
      'apps/server/src/db/seed.ts':
        "import type { StudiesRepository } from '../repositories/studies.repository.js';\nexport type S = StudiesRepository;\n",
      'apps/server/src/services/x.service.ts':
        "import type { Params } from '../http/params.js';\nexport type P = Params;\n",
    });
    assert.deepEqual(rulesOf(root).sort(), [
      'server-http-edge apps/server/src/services/x.service.ts',
      'server-layers apps/server/src/db/seed.ts',
      'server-layers apps/server/src/services/x.service.ts',
    ]);
  });

  it('server-protocols: dimse importing a service fails', () => {
    const root = tree({
      ...CLEAN,
      'apps/server/src/dimse/scu.ts':
        "import { StudyService } from '../services/study.service.js';\nexport const s = StudyService;\n",
    });
    assert.deepEqual(rulesOf(root), ['server-protocols apps/server/src/dimse/scu.ts']);
  });

  it('server-protocols and server-http-edge: imaging importing http fails both', () => {
    const root = tree({
      ...CLEAN,
      'apps/server/src/imaging/render.ts':
        "import { buildHttpApp } from '../http/app.js';\nexport const r = buildHttpApp;\n",
    });
    assert.deepEqual(rulesOf(root).sort(), [
      'server-http-edge apps/server/src/imaging/render.ts',
      'server-protocols apps/server/src/imaging/render.ts',
    ]);
  });

  it('server-http-edge: ingest importing http fails, even through a dynamic import', () => {
    const root = tree({
      ...CLEAN,
      'apps/server/src/ingest/ingest.ts': "export const load = () => import('../http/params.js');\n",
    });
    assert.deepEqual(rulesOf(root), ['server-http-edge apps/server/src/ingest/ingest.ts']);
  });

  it("web-feature-api: reaching into another feature's internals fails, from a feature or the shell", () => {
    const root = tree({
      ...CLEAN,
      'apps/web/src/features/link/Link.tsx':
        "import { SearchBar } from '../search/components/SearchBar';\nexport const Link = SearchBar;\n",
      'apps/web/src/app/Shell.tsx':
        "import type { SearchBar } from '../features/search/components/SearchBar';\nexport type S = typeof SearchBar;\n",
    });
    assert.deepEqual(rulesOf(root).sort(), [
      'web-feature-api apps/web/src/app/Shell.tsx',
      'web-feature-api apps/web/src/features/link/Link.tsx',
    ]);
  });

  it('no-cycles: a runtime import loop fails, in the server and in the web', () => {
    const root = tree({
      ...CLEAN,
      'apps/server/src/services/a.service.ts':
        "import { b } from './b.service.js';\nexport const a = () => b;\n",
      'apps/server/src/services/b.service.ts':
        "import { a } from './a.service.js';\nexport const b = () => a;\n",
      'apps/web/src/features/studies/components/Row.tsx':
        "import { List } from './List';\nexport const Row = () => List;\n",
    });
    const cycles = checkImports(root, new Set()).filter((v) => v.rule === 'no-cycles');
    assert.equal(cycles.length, 2);
    assert.match(cycles[0].why, /a\.service\.ts ↔ .*b\.service\.ts/);
    assert.match(cycles[1].why, /List\.tsx ↔ .*Row\.tsx/);
  });

  it('server-folders: a top-level folder no rule ranks fails', () => {
    const root = tree({ ...CLEAN, 'apps/server/src/workflows/x.ts': 'export const x = 1;\n' });
    assert.deepEqual(rulesOf(root), ['server-folders apps/server/src/workflows']);
  });

  it('server-kernel: a kernel file importing a module fails, even through its door', () => {
    const root = tree({
      ...CLEAN,
      'apps/server/src/ingest/ingest.ts':
        "import type { gatekeeperRoutes } from '../modules/gatekeeper/index.js';\nexport type G = typeof gatekeeperRoutes;\n",
    });
    assert.deepEqual(rulesOf(root), ['server-kernel apps/server/src/ingest/ingest.ts']);
  });

  it("server-module-door: another module reaching into a module's internals fails", () => {
    const root = tree({
      ...CLEAN,
      'apps/server/src/modules/sharing/share.service.ts':
        "import { NominationService } from '../gatekeeper/nomination.service.js';\nexport const s = NominationService;\n",
    });
    assert.deepEqual(rulesOf(root), ['server-module-door apps/server/src/modules/sharing/share.service.ts']);
  });

  it('web-feature-app: a feature importing the app shell fails', () => {
    const root = tree({
      ...CLEAN,
      'apps/web/src/features/search/components/Bar.tsx':
        "import { App } from '../../../app/App';\nexport const Bar = App;\n",
    });
    assert.deepEqual(rulesOf(root), ['web-feature-app apps/web/src/features/search/components/Bar.tsx']);
  });

  it('no-cycles: a loop through type-only imports fails unless every file of it is listed as known debt', () => {
    const files = {
      ...CLEAN,
      'apps/server/src/audit/a.ts': "import type { B } from './b.js';\nexport type A = { b?: B };\n",
      'apps/server/src/audit/b.ts': "import type { A } from './a.js';\nexport type B = { a?: A };\n",
    };
    const root = tree(files);
    assert.deepEqual(rulesOf(root), ['no-cycles apps/server/src/audit/a.ts']);
    const known = new Set(['apps/server/src/audit/a.ts', 'apps/server/src/audit/b.ts']);
    assert.deepEqual(checkImports(root, known), []);
  });
});
