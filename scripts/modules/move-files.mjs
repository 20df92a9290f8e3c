#!/usr/bin/env node
// Moves server files after the big move into modules (move-to-modules.mjs): old path → new path
// pairs, relative to apps/server/src, on the command line; apply-moves.mjs rewrites every import.
// Usage: node scripts/modules/move-files.mjs [--dry-run] <old> <new> [<old> <new> ...]
import { applyMoves, withColocatedTests } from './apply-moves.mjs';

/** The table: pairs of arguments, old path → new path, relative to apps/server/src. */
export function moveTable() {
  const args = process.argv.slice(2).filter((a) => a !== '--dry-run');
  const table = new Map();
  for (let i = 0; i + 1 < args.length; i += 2) table.set(args[i], args[i + 1]);
  return withColocatedTests(table);
}

applyMoves(moveTable(), { dryRun: process.argv.includes('--dry-run') });
