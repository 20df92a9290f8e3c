import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import type { NetworkNamespace } from './netns.js';
import { waitForHttp } from './netns.js';

/**
 * Orthanc as the PACS in a private network namespace (it binds every interface), configured as a
 * hospital's would be: it checks the called AE and the calling AE's host, and only the modalities
 * listed may query, move, get and store. Its REST API (reached with curl inside the namespace)
 * tells what it holds.
 */
export interface OrthancOptions {
  /** AE title → [AE, host, port] entries of `DicomModalities`. */
  modalities: Record<string, [string, string, number]>;
  dicomPort?: number;
  httpPort?: number;
  /** Extra configuration keys. */
  config?: Record<string, unknown>;
}

export interface Orthanc {
  aeTitle: string;
  dicomPort: number;
  process: ChildProcess;
  /** One REST call; answers the parsed JSON (or the raw body for non-JSON). */
  rest<T = unknown>(method: string, urlPath: string, body?: string): Promise<T>;
  /** The raw bytes of a REST answer (e.g. `/instances/{id}/file`). */
  restBytes(urlPath: string): Promise<Buffer>;
  /** Starts it again after a kill (same storage). */
  restart(): Promise<void>;
}

export async function startOrthanc(
  ns: NetworkNamespace,
  workDir: string,
  options: OrthancOptions,
): Promise<Orthanc> {
  const dicomPort = options.dicomPort ?? 4242;
  const httpPort = options.httpPort ?? 8042;
  const storage = path.join(workDir, 'orthanc');
  fs.mkdirSync(storage, { recursive: true });
  const configPath = path.join(workDir, 'orthanc.json');
  fs.writeFileSync(
    configPath,
    JSON.stringify({
      Name: 'pacs',
      StorageDirectory: storage,
      IndexDirectory: storage,
      DicomAet: 'ORTHANC',
      DicomPort: dicomPort,
      HttpPort: httpPort,
      RemoteAccessAllowed: false,
      AuthenticationEnabled: false,
      DicomCheckCalledAet: true,
      DicomCheckModalityHost: true,
      DicomAlwaysAllowStore: false,
      DicomAlwaysAllowFind: false,
      DicomAlwaysAllowMove: false,
      DicomAlwaysAllowGet: false,
      DicomScuTimeout: 30,
      DicomModalities: options.modalities,
      Plugins: [],
      ...options.config,
    }),
  );
  const base = `http://127.0.0.1:${httpPort}`;
  const start = async () => {
    const child = ns.start('Orthanc', [configPath], { TCP_NODELAY: '1' });
    await waitForHttp(ns, `${base}/system`);
    return child;
  };
  const orthanc: Orthanc = {
    aeTitle: 'ORTHANC',
    dicomPort,
    process: await start(),
    async rest<T>(method: string, urlPath: string, body?: string) {
      const args = ['-s', '-f', '-X', method, `${base}${urlPath}`];
      if (body !== undefined) args.push('--data-binary', '@-');
      const out = await ns.run('curl', args, body === undefined ? {} : { input: body });
      try {
        return JSON.parse(out) as T;
      } catch {
        return out as T;
      }
    },
    async restBytes(urlPath: string) {
      const file = path.join(workDir, `rest-${process.hrtime.bigint()}.bin`);
      await ns.run('curl', ['-s', '-f', '-o', file, `${base}${urlPath}`]);
      const bytes = fs.readFileSync(file);
      fs.rmSync(file);
      return bytes;
    },
    async restart() {
      orthanc.process = await start();
    },
  };
  return orthanc;
}

/** Sends every file under `dir` to Orthanc with dcmtk's storescu (inside the namespace) as `callingAe`. */
export async function storeWithStorescu(
  ns: NetworkNamespace,
  orthanc: Orthanc,
  callingAe: string,
  dir: string,
): Promise<void> {
  await ns.run('env', [
    'TCP_NODELAY=1',
    'storescu',
    '-aet',
    callingAe,
    '-aec',
    orthanc.aeTitle,
    '+sd',
    '+r',
    '-nh',
    '127.0.0.1',
    String(orthanc.dicomPort),
    dir,
  ]);
}
