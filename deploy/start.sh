#!/usr/bin/env bash
# The image's command: wait for the database and the bucket (deploy/await-dependencies.mjs), then
# run the built server with its node flags (scripts/serve.sh), as PID 1 so SIGTERM reaches it and it
# drains for DRAIN_SECONDS before it stops.
set -euo pipefail
cd "$(dirname "$0")/.."
node deploy/await-dependencies.mjs
exec bash scripts/serve.sh "$@"
