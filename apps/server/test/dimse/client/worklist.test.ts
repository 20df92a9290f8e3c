import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { findAll, textOf } from '../../../src/dimse/client/index.js';
import type { DicomAttributes, Peer } from '../../../src/dimse/client/index.js';
import { createNetworkNamespace } from '../../support/netns.js';
import type { NetworkNamespace } from '../../support/netns.js';
import { forwardIntoNamespace } from '../../support/netns-forward.js';
import type { Forward } from '../../support/netns-forward.js';
import { INBOX_AE } from './support.js';

/**
 * Modality Worklist C-FIND against dcmtk's wlmscpfs, serving the example orders of dcmtk's
 * wlistdb (made into `.wl` files by dump2dcm) and two of ours in UTF-8 and Latin-1, decoded by
 * their Specific Character Set. wlmscpfs binds every interface: it runs in a private namespace.
 */
const EXAMPLES = '/usr/share/doc/dcmtk/examples/wlistdb/OFFIS';
const PORT = 2005;

/** A worklist order as a dcmtk dump, in the character set it names. */
function order(
  charset: string,
  fields: { accession: string; name: string; id: string; description: string },
) {
  return [
    `(0008,0005) CS  [${charset}]`,
    `(0008,0050) SH  [${fields.accession}]`,
    `(0010,0010) PN  [${fields.name}]`,
    `(0010,0020) LO  [${fields.id}]`,
    '(0010,0030) DA  [19700101]',
    '(0010,0040) CS  [F]',
    '(0020,000d) UI  [1.2.826.0.1.3680043.2.1125.77.1]',
    `(0032,1060) LO  [${fields.description}]`,
    '(0040,0100) SQ',
    '(fffe,e000) -',
    '(0008,0060) CS  [CT]',
    '(0040,0001) AE  [CT01]',
    '(0040,0002) DA  [20261124]',
    '(0040,0003) TM  [093000]',
    '(0040,0007) LO  [CT HEAD]',
    '(0040,0009) SH  [SPS-1]',
    '(fffe,e00d) -',
    '(fffe,e0dd) -',
    '(0040,1001) SH  [RP-1]',
    '',
  ].join('\n');
}

describe('Modality Worklist C-FIND against wlmscpfs', () => {
  let ns: NetworkNamespace;
  let workDir: string;
  let forward: Forward;
  let peer: Peer;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-scu-mwl-'));
    const db = path.join(workDir, 'wldb', 'WLSCP');
    fs.mkdirSync(db, { recursive: true });
    fs.writeFileSync(path.join(db, 'lockfile'), '');
    for (const file of fs.readdirSync(EXAMPLES).filter((f) => f.endsWith('.dump'))) {
      execFileSync('dump2dcm', [
        '-g',
        path.join(EXAMPLES, file),
        path.join(db, file.replace(/\.dump$/, '.wl')),
      ]);
    }
    const dumps = {
      utf8: Buffer.from(
        order('ISO_IR 192', {
          accession: 'ACC-UTF8',
          name: 'MÜLLER^JÖRG',
          id: 'PID-UTF8',
          description: 'Schädel CT',
        }),
        'utf8',
      ),
      latin1: Buffer.from(
        order('ISO_IR 100', {
          accession: 'ACC-LATIN1',
          name: 'GARCÍA^JOSÉ',
          id: 'PID-L1',
          description: 'Tórax',
        }),
        'latin1',
      ),
    };
    for (const [name, bytes] of Object.entries(dumps)) {
      const dump = path.join(workDir, `${name}.dump`);
      fs.writeFileSync(dump, bytes);
      execFileSync('dump2dcm', ['-q', '-g', dump, path.join(db, `${name}.wl`)]);
    }
    ns = await createNetworkNamespace();
    // -csk: answer each order with the Specific Character Set of its file (the default sends none).
    ns.start('wlmscpfs', ['-csk', '-dfp', path.join(workDir, 'wldb'), String(PORT)], { TCP_NODELAY: '1' });
    forward = await forwardIntoNamespace(ns, PORT);
    peer = { host: '127.0.0.1', port: forward.port, aeTitle: 'WLSCP' };
    for (let i = 0; ; i++) {
      const ok = await ns
        .run('echoscu', ['-aec', 'WLSCP', '127.0.0.1', String(PORT)])
        .then(() => true)
        .catch(() => false);
      if (ok) break;
      if (i === 150) throw new Error('wlmscpfs did not answer C-ECHO within 30 s');
      await new Promise((r) => setTimeout(r, 200));
    }
  }, 60_000);

  afterAll(async () => {
    await forward?.close();
    await ns?.stop();
    if (workDir) fs.rmSync(workDir, { recursive: true, force: true });
  });

  const query = (keys: Record<string, unknown>) =>
    findAll(
      peer,
      { callingAe: INBOX_AE },
      {
        model: 'worklist',
        keys: {
          SpecificCharacterSet: '',
          AccessionNumber: '',
          PatientName: '',
          PatientID: '',
          RequestedProcedureID: '',
          RequestedProcedureDescription: '',
          StudyInstanceUID: '',
          ScheduledProcedureStepSequence: [
            {
              Modality: '',
              ScheduledStationAETitle: '',
              ScheduledProcedureStepStartDate: '',
              ScheduledProcedureStepStartTime: '',
              ScheduledProcedureStepID: '',
              ScheduledProcedureStepDescription: '',
            },
          ],
          ...(keys as object),
        },
      },
    );

  const step = (result: DicomAttributes) => {
    const sequence = result['ScheduledProcedureStepSequence'];
    expect(Array.isArray(sequence)).toBe(true);
    return (sequence as DicomAttributes[])[0]!;
  };

  it('finds the example orders by modality inside the Scheduled Procedure Step Sequence', async () => {
    const { results, outcome } = await query({
      ScheduledProcedureStepSequence: [
        { Modality: 'MR', ScheduledStationAETitle: '', ScheduledProcedureStepID: '' },
      ],
    });
    expect(outcome.status).toBe(0);
    // Two of the ten example orders are MR (one of them VIVALDI's).
    expect(results.length).toBe(2);
    for (const result of results) expect(textOf(step(result), 'Modality')).toBe('MR');
    const vivaldi = results.filter((r) => textOf(r, 'PatientName') === 'VIVALDI^ANTONIO');
    expect(vivaldi.length).toBeGreaterThanOrEqual(1);
    expect(textOf(step(vivaldi[0]!), 'ScheduledStationAETitle')).toMatch(/^AA\d\d/);
  });

  it('matches on a non-ASCII patient name sent in UTF-8', async () => {
    const { results } = await query({ PatientName: 'MÜLLER*' });
    expect(results.map((r) => textOf(r, 'PatientID'))).toEqual(['PID-UTF8']);
  });

  it('decodes each order in its own character set (UTF-8 and Latin-1)', async () => {
    const utf8 = await query({ PatientID: 'PID-UTF8' });
    expect(utf8.results).toHaveLength(1);
    const [mueller] = utf8.results;
    expect(textOf(mueller!, 'PatientName')).toBe('MÜLLER^JÖRG');
    expect(textOf(mueller!, 'RequestedProcedureDescription')).toBe('Schädel CT');
    expect(textOf(mueller!, 'AccessionNumber')).toBe('ACC-UTF8');
    expect(textOf(step(mueller!), 'Modality')).toBe('CT');
    expect(textOf(step(mueller!), 'ScheduledProcedureStepStartDate')).toBe('20261124');
    expect(textOf(step(mueller!), 'ScheduledProcedureStepID')).toBe('SPS-1');

    const latin1 = await query({ PatientID: 'PID-L1' });
    expect(latin1.results).toHaveLength(1);
    expect(textOf(latin1.results[0]!, 'PatientName')).toBe('GARCÍA^JOSÉ');
    expect(textOf(latin1.results[0]!, 'RequestedProcedureDescription')).toBe('Tórax');
  });

  it('refuses an unknown keyword before anything is sent', async () => {
    await expect(query({ NoSuchKeyword: '' })).rejects.toThrow(/unknown DICOM keyword/);
  });
});
