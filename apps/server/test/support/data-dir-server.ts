import { loadConfig } from '../../src/config.js';
import type { RunningServer } from '../../src/main.js';
import { startServer } from '../../src/main.js';
import { DEMO_PASSWORD } from './test-server.js';

/**
 * Starts a server on a data dir (and database) the test keeps, so that it can be stopped and started
 * again on the same data as a restarted process is: no seeded studies, its log lines collected for
 * what the start-up said (the recovery scan, the debris it removed).
 */
export async function startOnDataDir(
  dataDir: string,
  databaseUrl: string | undefined,
  env: Record<string, string> = {},
): Promise<{ running: RunningServer; lines: string[] }> {
  const lines: string[] = [];
  const running = await startServer(
    loadConfig({
      PORT: '0',
      DICOM_PORT: '0',
      DATA_DIR: dataDir,
      DEMO_PASSWORD,
      SEED_STUDIES: '0',
      SEED_NOMINATIONS: '0',
      // 65,536 directories per test server would cost more than the few files a test stores.
      BLOB_DIRECTORIES_AHEAD: '0',
      LOG_LEVEL: 'warn',
      ...env,
      ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
    }),
    (line) => lines.push(line),
  );
  return { running, lines };
}
