#!/usr/bin/env bash
# Runs the built server (apps/server/dist) with the flags for node it is meant to run with
# (apps/server/src/runtime-flags.ts says which and why). npm start calls this after building.
set -euo pipefail
cd "$(dirname "$0")/.."
flags=$(node --input-type=module -e "const { SERVER_NODE_FLAGS } = await import('./apps/server/dist/runtime-flags.js'); console.log(SERVER_NODE_FLAGS.join(' '))")
# shellcheck disable=SC2086 # the flags are words of their own
exec node $flags apps/server/dist/main.js "$@"
