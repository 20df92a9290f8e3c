import fs from 'node:fs';
import path from 'node:path';

/**
 * A file in DATA_DIR that exists while this process runs: written (and synced) at start, removed at
 * a clean stop once every index commit is durable. It is this process's own: named by PROCESS_ID
 * when one is set (`server-<id>.running`), so processes sharing a DATA_DIR never read, overwrite or
 * clear each other's, and a process finds only its own previous run. Finding it at start means the previous run ended
 * without that stop (killed, crashed, power cut), so index rows committed without a log sync may
 * be missing; its modification time is when that run started, the earliest a lost row's file can
 * have been written. It also names that run (`run <PROCESS_ID>/<run id>`), the holder recorded on
 * the jobs it claimed, so the next start gives those back at once (JobsRepository.releaseHeldBy).
 */
export class RunMarker {
  private readonly file: string;

  constructor(
    private readonly dataDir: string,
    private readonly processId?: string,
  ) {
    this.file = path.join(
      dataDir,
      processId === undefined ? 'server.running' : `server-${processId}.running`,
    );
  }

  get path(): string {
    return this.file;
  }

  /** When the previous run started, if it did not stop cleanly; undefined after a clean stop. */
  previousUncleanStart(): number | undefined {
    try {
      return fs.statSync(this.file).mtimeMs;
    } catch {
      return undefined;
    }
  }

  /**
   * The run that left the marker (its job holder), if the previous run did not stop cleanly and
   * recorded one. Only the marker's first bytes are read: it is a few short lines.
   */
  previousRun(): string | undefined {
    let text: string;
    try {
      const fd = fs.openSync(this.file, 'r');
      try {
        const buffer = Buffer.alloc(1024);
        text = buffer.subarray(0, fs.readSync(fd, buffer, 0, buffer.length, 0)).toString('utf8');
      } finally {
        fs.closeSync(fd);
      }
    } catch {
      return undefined;
    }
    return /^run (\S{1,400})$/m.exec(text)?.[1];
  }

  /** Records that this run (`run`, its job holder) has started (overwrites a previous run's marker). */
  set(run?: string): void {
    const fd = fs.openSync(this.file, 'w');
    try {
      fs.writeSync(
        fd,
        `process ${this.processId ?? '-'} pid ${process.pid} started ${new Date().toISOString()}\n` +
          (run ? `run ${run}\n` : ''),
      );
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    syncDirectory(this.dataDir);
  }

  /** Records a clean stop. */
  clear(): void {
    fs.rmSync(this.file, { force: true });
    syncDirectory(this.dataDir);
  }
}

function syncDirectory(dir: string): void {
  const fd = fs.openSync(dir, 'r');
  try {
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
