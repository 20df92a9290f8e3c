#!/usr/bin/env bash
# npm start: install what is missing, build, run on the embedded defaults (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/npm-deps.sh
npm run build --silent
# The demo shows its mail at /dev/outbox (loopback only, never with SMTP_URL); DEV_OUTBOX=0 turns it off.
export DEV_OUTBOX="${DEV_OUTBOX:-1}"
exec bash scripts/serve.sh
