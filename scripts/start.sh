#!/usr/bin/env bash
# npm start: install what is missing, build, run on the embedded defaults (see README).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/npm-deps.sh
npm run build --silent
# The demo shows its mail at /dev/outbox (loopback only, never with SMTP_URL); DEV_OUTBOX=0 turns it off.
export DEV_OUTBOX="${DEV_OUTBOX:-1}"
# The demo's PACS Archive destination is this server's own listener on 127.0.0.1: destinations may
# not reach loopback addresses unless DICOM_ALLOWED_HOSTS allows them (set it to override).
export DICOM_ALLOWED_HOSTS="${DICOM_ALLOWED_HOSTS-127.0.0.1}"
exec bash scripts/serve.sh
