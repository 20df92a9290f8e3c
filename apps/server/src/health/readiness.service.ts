import type { HealthRepository } from './health.repository.js';
import type { BlobStore } from '../storage/blob-store.js';

export interface ReadinessAnswer {
  ready: boolean;
  process: string;
  draining: boolean;
  /** 'ok', or why the part is not reachable. */
  database: string;
  blobs: string;
}

/** A probe that does not answer within this is a failed one (a load balancer checks every few seconds). */
const PROBE_TIMEOUT_MS = 2_000;

/**
 * Whether this process should get traffic: its database and blob store answer and it is not
 * draining. Draining starts at SIGTERM: the process keeps serving what comes while the load
 * balancer's health checks see it not ready and send new work elsewhere (DRAIN_SECONDS), then stops.
 */
export class Readiness {
  private draining = false;

  constructor(private readonly deps: { health: HealthRepository; blobs: BlobStore; processId: string }) {}

  drain(): void {
    this.draining = true;
  }

  async check(): Promise<ReadinessAnswer> {
    const [database, blobs] = await Promise.all([
      probe(() => this.deps.health.ping()),
      probe(() => this.deps.blobs.check()),
    ]);
    return {
      ready: !this.draining && database === 'ok' && blobs === 'ok',
      process: this.deps.processId,
      draining: this.draining,
      database,
      blobs,
    };
  }
}

async function probe(run: () => Promise<void>): Promise<string> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<string>((resolve) => {
    timer = setTimeout(() => resolve(`no answer within ${PROBE_TIMEOUT_MS} ms`), PROBE_TIMEOUT_MS);
  });
  try {
    return await Promise.race([
      run().then(
        () => 'ok',
        (error: unknown) => (error instanceof Error ? error.message : String(error)),
      ),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
