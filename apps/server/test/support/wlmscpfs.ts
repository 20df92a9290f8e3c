import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createNetworkNamespace } from './netns.js';
import type { NetworkNamespace } from './netns.js';
import { forwardIntoNamespace } from './netns-forward.js';
import type { Forward } from './netns-forward.js';

/** One scheduled order as a worklist file holds it (DICOM values: PN `LAST^FIRST`, dates YYYYMMDD). */
export interface WorklistEntry {
  accession: string;
  name: string;
  id: string;
  birthDate: string;
  sex: string;
  modality: string;
  date: string;
  description: string;
  referring?: string;
  /** Requested Procedure ID (0040,1001); RP-1 unless given. */
  procedureId?: string;
}

/** Orders the worklist tests share: Ada Lovelace's MR brain, and a CT whose names need UTF-8. */
export const ADA_MR_BRAIN: WorklistEntry = {
  accession: 'MWL-1',
  name: 'LOVELACE^ADA',
  id: 'MRN-MWL',
  birthDate: '19801210',
  sex: 'F',
  modality: 'MR',
  date: '20261127',
  description: 'MR BRAIN',
  referring: 'HOUSE^GREGORY',
};
export const UTF8_HEAD_CT: WorklistEntry = {
  accession: 'MWL-3',
  name: 'MÜLLER^JÖRG',
  id: 'MRN-UTF8',
  birthDate: '19600505',
  sex: 'M',
  modality: 'CT',
  date: '20261128',
  description: 'Schädel CT',
};

/** A dcmtk dump of one worklist entry, in UTF-8. */
export function worklistDump(entry: WorklistEntry): string {
  return [
    '(0008,0005) CS  [ISO_IR 192]',
    `(0008,0050) SH  [${entry.accession}]`,
    `(0008,0090) PN  [${entry.referring ?? ''}]`,
    `(0010,0010) PN  [${entry.name}]`,
    `(0010,0020) LO  [${entry.id}]`,
    `(0010,0030) DA  [${entry.birthDate}]`,
    `(0010,0040) CS  [${entry.sex}]`,
    '(0020,000d) UI  [1.2.826.0.1.3680043.2.1125.77.2]',
    `(0032,1060) LO  [${entry.description}]`,
    '(0040,0100) SQ',
    '(fffe,e000) -',
    `(0008,0060) CS  [${entry.modality}]`,
    '(0040,0001) AE  [MOD01]',
    `(0040,0002) DA  [${entry.date}]`,
    '(0040,0003) TM  [093000]',
    `(0040,0007) LO  [${entry.description}]`,
    '(0040,0009) SH  [SPS-1]',
    '(fffe,e00d) -',
    '(fffe,e0dd) -',
    `(0040,1001) SH  [${entry.procedureId ?? 'RP-1'}]`,
    '',
  ].join('\n');
}

export interface WorklistServer {
  /** The AE title wlmscpfs answers as (the worklist directory's name). */
  aeTitle: string;
  /** Its port as seen from this process (127.0.0.1). */
  port: number;
  stop(): Promise<void>;
}

/** dcmtk's own example worklist (three orders of VIVALDI^ANTONIO among ten), as dump files. */
export const DCMTK_EXAMPLE_DUMPS = '/usr/share/doc/dcmtk/examples/wlistdb/OFFIS';

/** What else a worklist server holds: dcmtk dump files to serve too, other AE titles it answers as. */
export interface WorklistOptions {
  dumps?: readonly string[];
  /** More called AE titles answering the same worklist (a destination per AE title). */
  alsoAs?: readonly string[];
}

/**
 * dcmtk's wlmscpfs serving these entries (made into `.wl` files with dump2dcm), and any dcmtk dump
 * files given, in a private network namespace since it binds every interface, reachable on a
 * forwarded port of 127.0.0.1.
 */
export async function startWorklistServer(
  entries: WorklistEntry[],
  aeTitle = 'WLSCP',
  { dumps = [], alsoAs = [] }: WorklistOptions = {},
): Promise<WorklistServer> {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-wlmscpfs-'));
  const db = path.join(workDir, 'wldb', aeTitle);
  fs.mkdirSync(db, { recursive: true });
  fs.writeFileSync(path.join(db, 'lockfile'), '');
  for (const [i, entry] of entries.entries()) {
    const dump = path.join(workDir, `${i}.dump`);
    fs.writeFileSync(dump, worklistDump(entry), 'utf8');
    execFileSync('dump2dcm', ['-q', '-g', dump, path.join(db, `${i}.wl`)]);
  }
  for (const [i, dump] of dumps.entries()) {
    execFileSync('dump2dcm', ['-q', '-g', dump, path.join(db, `example-${i}.wl`)]);
  }
  for (const other of alsoAs) fs.cpSync(db, path.join(workDir, 'wldb', other), { recursive: true });
  const port = 2005;
  let ns: NetworkNamespace | undefined;
  let forward: Forward | undefined;
  const stop = async () => {
    await forward?.close();
    await ns?.stop();
    fs.rmSync(workDir, { recursive: true, force: true });
  };
  try {
    ns = await createNetworkNamespace();
    const scp = ns.start('wlmscpfs', ['-csk', '-dfp', path.join(workDir, 'wldb'), String(port)], {
      TCP_NODELAY: '1',
    });
    // Its warnings (two per file it reads, each query) must be read, or a full pipe stalls it.
    scp.stdout?.resume();
    scp.stderr?.resume();
    forward = await forwardIntoNamespace(ns, port);
    for (let i = 0; ; i++) {
      const ok = await ns
        .run('echoscu', ['-aec', aeTitle, '127.0.0.1', String(port)])
        .then(() => true)
        .catch(() => false);
      if (ok) break;
      if (i === 150) throw new Error('wlmscpfs did not answer C-ECHO within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { aeTitle, port: forward.port, stop };
}
