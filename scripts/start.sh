#!/usr/bin/env bash
# npm start: install what is missing, build, run on the embedded defaults (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/npm-deps.sh
npm run build --silent
exec node apps/server/dist/main.js
