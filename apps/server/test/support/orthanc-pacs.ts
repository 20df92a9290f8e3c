import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NetworkNamespace } from './netns.js';
import { createNetworkNamespace } from './netns.js';
import type { Forward } from './netns-forward.js';
import { forwardIntoNamespace } from './netns-forward.js';
import type { Orthanc, OrthancOptions } from './orthanc.js';
import { startOrthanc } from './orthanc.js';

/** Orthanc as a hospital PACS in a network namespace of its own, with a work folder of its own. */
export interface OrthancPacs {
  ns: NetworkNamespace;
  orthanc: Orthanc;
  /** Where this process reaches Orthanc's DICOM port (127.0.0.1:port). */
  toOrthanc: Forward;
  /** A temporary folder for the test's files (Orthanc's storage is below it). */
  workDir: string;
  /** Takes it all down: the forward, the namespace with Orthanc, the work folder. */
  stop(): Promise<void>;
}

/**
 * Starts Orthanc, by default letting our listener (AE INBOX on its usual port) query, move to and
 * store into it; `prefix` names the work folder.
 */
export async function startOrthancPacs(
  prefix: string,
  options: Partial<OrthancOptions> = {},
): Promise<OrthancPacs> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  let ns: NetworkNamespace | undefined;
  let toOrthanc: Forward | undefined;
  const stop = async () => {
    await toOrthanc?.close();
    await ns?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  try {
    ns = await createNetworkNamespace();
    const orthanc = await startOrthanc(ns, workDir, {
      modalities: { INBOX: ['INBOX', '127.0.0.1', 11112] },
      ...options,
    });
    toOrthanc = await forwardIntoNamespace(ns, orthanc.dicomPort);
    return { ns, orthanc, toOrthanc, workDir, stop };
  } catch (error) {
    // A half-started PACS must not leave its namespace and processes to the next tests.
    await stop();
    throw error;
  }
}
