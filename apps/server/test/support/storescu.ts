import { spawn } from 'node:child_process';

export interface StorescuRun {
  /** storescu's exit code: 0 when every file was stored. */
  code: number;
  /** What it printed, for the failure message of an assertion. */
  output: string;
}

/** Runs dcmtk's storescu without blocking the event loop (the server may live in this process). */
export function storescu(args: string[]): Promise<StorescuRun> {
  return new Promise((resolve, reject) => {
    // Debian's dcmtk waits on Nagle's algorithm between PDUs without it.
    const child = spawn('storescu', args, { env: { ...process.env, TCP_NODELAY: '1' } });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code: code ?? -1, output }));
  });
}

/**
 * Sends every file under `dir` over one association to our listener on `port`, as `callingAe`:
 * by default the demo world's registered gateway, whose exams land in Emergency.
 */
export function sendFolder(dir: string, port: number, callingAe = 'DEMO_GATEWAY'): Promise<StorescuRun> {
  return storescu(['-aet', callingAe, '-aec', 'INBOX', '127.0.0.1', String(port), '+sd', dir]);
}
