/**
 * The sending half of `npm run bench:push`, run inside the benchmark's network namespace (beside
 * Orthanc, as storescu is): sends every file of a directory to the peer with our DICOM client over
 * N concurrent associations (files dealt round-robin) and prints one JSON line with the wall time
 * (directory scan included, as storescu's +sd includes its own) and the outcome counts.
 *
 *   tsx bench/push-client.ts DIR PORT CALLED_AE ASSOCIATIONS
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileStoreSource, openAssociation, storageContexts } from '../src/dimse/client/index.js';
import type { StoreSource } from '../src/dimse/client/index.js';

const [dir, port, calledAe, associations] = process.argv.slice(2);
const peer = { host: '127.0.0.1', port: Number(port), aeTitle: calledAe! };

const started = performance.now();
const files = fs
  .readdirSync(dir!)
  .sort()
  .map((name) => path.join(dir!, name));
const sources = await Promise.all(files.map((file) => fileStoreSource(file)));
const lanes = Number(associations ?? '1');
const counts = { success: 0, warning: 0, retry: 0, failure: 0, other: 0 };
const reasons = new Set<string>();

async function lane(mine: StoreSource[]): Promise<void> {
  if (mine.length === 0) return;
  const association = await openAssociation(peer, { callingAe: 'INBOX', contexts: storageContexts(mine) });
  try {
    for (const outcome of await association.storeAll(mine)) {
      if (outcome.category in counts) counts[outcome.category as keyof typeof counts]++;
      else counts.other++;
      if (outcome.reason) reasons.add(outcome.reason);
    }
  } finally {
    await association.release();
  }
}

await Promise.all(
  Array.from({ length: lanes }, (_, i) => lane(sources.filter((_, index) => index % lanes === i))),
);
const seconds = (performance.now() - started) / 1000;
const cpu = process.cpuUsage();
const cpuSeconds = (cpu.user + cpu.system) / 1e6;
console.log(
  JSON.stringify({
    seconds,
    cpuSeconds,
    instances: sources.length,
    ...counts,
    reasons: [...reasons].slice(0, 3),
  }),
);
