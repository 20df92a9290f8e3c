#!/usr/bin/env bash
# npm test: every check — types, lint, format, unit and integration tests on SQLite and on a private
# PostgreSQL cluster, web component tests, the container image and compose cluster (podman), and
# browser tests in Debian's Chromium.
set -euo pipefail
cd "$(dirname "$0")/.."
export TCP_NODELAY=1

# Each stage prints the minutes the run has taken so far, so a slow stage shows in CI's log.
stage() { echo "== $1 (at $((SECONDS / 60)) min $((SECONDS % 60)) s)"; }

bash scripts/system-deps.sh
bash scripts/npm-deps.sh

stage "build"
npm run build --silent
stage "type check"
npx tsc -p apps/server/tsconfig.json
npx tsc -p apps/web/tsconfig.json --noEmit
[ -f e2e/tsconfig.json ] && npx tsc -p e2e/tsconfig.json --noEmit
stage "lint and format"
npx eslint . --max-warnings 0
node scripts/check-imports.mjs
node --test scripts/check-imports.test.mjs
npx prettier --check . >/dev/null || { npx prettier --check . | tail -20; exit 1; }
stage "server: unit and integration (SQLite and PostgreSQL)"
(cd apps/server && npx vitest run)
stage "server: ingest, download, DICOMweb and purge on the S3-compatible store (a private s3rver)"
(cd apps/server && TEST_BLOB_STORE=s3 npx vitest run test/api/upload.test.ts test/api/study-download.test.ts \
  test/api/study-trash.test.ts test/dicomweb/dicomweb-read.test.ts test/dicomweb/stow.test.ts test/dimse/cstore.test.ts)
stage "web: component tests"
(cd apps/web && npx vitest run --passWithNoTests)
stage "deploy: the container image and the compose cluster, with podman"
(cd apps/server && npx vitest run --config vitest.deploy.config.ts)
if [ -f e2e/vitest.config.ts ]; then
  stage "browser tests"
  (cd e2e && npx vitest run)
fi
stage "done"
