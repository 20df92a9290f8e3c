import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import type { NetworkNamespace } from '../test/support/netns.js';
import { createNetworkNamespace } from '../test/support/netns.js';
import { cpuMsOf } from './proc-cpu.js';

const execFileAsync = promisify(execFile);

/**
 * Orthanc on its default storage settings (SyncStorageArea: each file synced), receiving the same
 * files over as many storescu associations right after our server did: the reference of issue 4's rate
 * targets, measured at the same moment on the same disk. Orthanc binds every interface, so it runs
 * in a private network namespace with its storescu (root only).
 */
export interface OrthancPeer {
  version: string;
  /** Its namespace, where its clients run (bench:cfind's findscu). */
  ns: NetworkNamespace;
  /** Its DICOM port inside the namespace. */
  port: number;
  /** Sends every file of each of `dirs`, one association per directory at once; answers the wall time in seconds. */
  send(dirs: string[]): Promise<number>;
  /** CPU time (user + system, ms) Orthanc's process has used so far. */
  cpuMs(): number;
  stop(): Promise<void>;
}

const PORT = 4242;

export async function startOrthancPeer(workDir: string): Promise<OrthancPeer> {
  const storage = path.join(workDir, 'orthanc');
  fs.mkdirSync(storage, { recursive: true });
  const config = path.join(storage, 'orthanc.json');
  fs.writeFileSync(
    config,
    JSON.stringify({
      Name: 'bench',
      StorageDirectory: storage,
      IndexDirectory: storage,
      DicomAet: 'ORTHANC',
      DicomPort: PORT,
      HttpPort: 8042,
      RemoteAccessAllowed: false,
      DicomAlwaysAllowStore: true,
      // bench:cfind queries it as an AE it does not list.
      DicomAlwaysAllowFind: true,
      Plugins: [],
    }),
  );
  const { stdout: versionLine } = await execFileAsync('Orthanc', ['--version']);
  const ns = await createNetworkNamespace();
  // nsenter runs Orthanc in its own place (it forks only to enter a PID namespace): the child is Orthanc.
  const orthanc = ns.start('Orthanc', [config], { TCP_NODELAY: '1' });
  const echo = () => ns.run('echoscu', ['-aec', 'ORTHANC', '127.0.0.1', String(PORT)]).then(() => true);
  for (let i = 0; ; i++) {
    if (await echo().catch(() => false)) break;
    if (i === 100) {
      await ns.stop();
      throw new Error('Orthanc did not answer C-ECHO within 20 s');
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  return {
    version: versionLine.split('\n')[0]!.trim(),
    ns,
    port: PORT,
    cpuMs: () => cpuMsOf(`/proc/${orthanc.pid}/stat`),
    async send(dirs) {
      const started = performance.now();
      await Promise.all(
        dirs.map((dir) =>
          ns.run('env', [
            'TCP_NODELAY=1',
            'storescu',
            '-aec',
            'ORTHANC',
            '+sd',
            '-nh',
            '127.0.0.1',
            String(PORT),
            dir,
          ]),
        ),
      );
      return (performance.now() - started) / 1000;
    },
    stop: () => ns.stop(),
  };
}
