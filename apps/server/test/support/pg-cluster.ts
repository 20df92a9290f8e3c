import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

/**
 * A private PostgreSQL 15 cluster for the integration suite: initdb in a temp dir as the postgres
 * user, listening on 127.0.0.1 at a free port, removed afterwards.
 */
const BIN_DIRS = ['/usr/lib/postgresql/15/bin', '/usr/local/bin'];

function pgBin(name: string): string {
  for (const dir of BIN_DIRS) {
    const candidate = path.join(dir, name);
    if (fs.existsSync(candidate)) return candidate;
  }
  throw new Error(`PostgreSQL binary ${name} not found in ${BIN_DIRS.join(', ')}`);
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Runs a command as the postgres user when we are root (initdb refuses root). */
function asPostgres(command: string, args: string[]): void {
  if (process.getuid?.() === 0)
    execFileSync('runuser', ['-u', 'postgres', '--', command, ...args], { stdio: 'pipe' });
  else execFileSync(command, args, { stdio: 'pipe' });
}

export interface PgCluster {
  url: (database: string) => string;
  /** The postmaster's process id (its backends are its children), for benches that read their CPU. */
  postmasterPid(): number;
  stop(): void;
}

/**
 * `locale` (default none, i.e. the C collation) lets a benchmark run under a typical install's
 * collation such as en_US.UTF-8, where a plain btree index cannot serve a LIKE prefix.
 */
export async function startPgCluster(settings: { locale?: string } = {}): Promise<PgCluster> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-pg-'));
  fs.chmodSync(dir, 0o777);
  if (process.getuid?.() === 0) execFileSync('chown', ['postgres', dir]);
  const dataDir = path.join(dir, 'data');
  const port = await freePort();
  const locale = settings.locale ? [`--locale=${settings.locale}`] : ['--no-locale'];
  asPostgres(pgBin('initdb'), ['-D', dataDir, '-A', 'trust', '-U', 'postgres', ...locale, '-E', 'UTF8']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c full_page_writes=off -c max_connections=200`;
  asPostgres(pgBin('pg_ctl'), ['-D', dataDir, '-o', options, '-l', path.join(dir, 'log'), '-w', 'start']);
  return {
    url: (database) => `postgres://postgres@127.0.0.1:${port}/${database}`,
    postmasterPid: () => Number(fs.readFileSync(path.join(dataDir, 'postmaster.pid'), 'utf8').split('\n')[0]),
    stop() {
      try {
        asPostgres(pgBin('pg_ctl'), ['-D', dataDir, '-m', 'immediate', 'stop']);
      } finally {
        fs.rmSync(dir, { recursive: true, force: true });
      }
    },
  };
}
