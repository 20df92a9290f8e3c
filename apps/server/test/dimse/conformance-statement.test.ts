import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAssociation } from '../../src/dimse/client/index.js';
import type { ContextProposal } from '../../src/dimse/client/index.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

const STATEMENT = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '../../../../docs/dicom-conformance.md',
);
const IMPLICIT_LE = '1.2.840.10008.1.2';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';

/** Abstract syntaxes the statement does not claim as SCP: each must be refused. */
const NOT_CLAIMED = [
  '1.2.840.10008.5.1.4.31', // Modality Worklist Information Model - FIND
  '1.2.840.10008.5.1.1.9', // Basic Grayscale Print Management Meta SOP Class
];

/**
 * The SOP class UIDs of the statement's "As SCP" table: the rows between that heading and the
 * next one whose UID column is a UID in backticks.
 */
function claimedScpClasses(): { name: string; uid: string }[] {
  const text = fs.readFileSync(STATEMENT, 'utf8');
  const start = text.indexOf('### 2.1 As SCP');
  expect(start, 'the statement has an "As SCP" section').toBeGreaterThan(-1);
  const end = text.indexOf('\n### ', start + 1);
  const section = text.slice(start, end === -1 ? undefined : end);
  const rows: { name: string; uid: string }[] = [];
  for (const line of section.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const uid = /^`([0-9.]+)`$/.exec(cells[2] ?? '')?.[1];
    if (uid && cells[3] === 'SCP') rows.push({ name: cells[1]!, uid });
  }
  return rows;
}

describe.each(DIALECTS)('The conformance statement against the listener on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  /** The abstract syntaxes the listener accepts of `classes`, proposed by the demo gateway on one association. */
  const accepted = async (classes: string[]): Promise<Set<string>> => {
    const contexts: ContextProposal[] = classes.map((uid) => ({
      abstractSyntax: uid,
      transferSyntaxes: [EXPLICIT_LE, IMPLICIT_LE],
    }));
    // DEMO_GATEWAY is registered at 127.0.0.1 and may query and retrieve (Emergency).
    const association = await openAssociation(
      { host: '127.0.0.1', port: server.dicomPort, aeTitle: 'INBOX' },
      { callingAe: 'DEMO_GATEWAY', contexts },
    );
    try {
      return new Set(association.contexts.map((c) => c.abstractSyntax));
    } finally {
      await association.release();
    }
  };

  it('accepts every SOP class the statement claims as SCP', async () => {
    const claimed = claimedScpClasses();
    // The table holds Verification, storage classes and the six Query/Retrieve classes.
    expect(claimed.length).toBeGreaterThan(30);
    expect(claimed.map((c) => c.uid)).toContain('1.2.840.10008.1.1');
    expect(claimed.map((c) => c.uid)).toContain('1.2.840.10008.5.1.4.1.2.2.3');
    const got = await accepted(claimed.map((c) => c.uid));
    const refused = claimed.filter((c) => !got.has(c.uid));
    expect(refused, 'claimed in docs/dicom-conformance.md but refused').toEqual([]);
  });

  it('refuses SOP classes the statement does not claim, beside claimed ones on the same association', async () => {
    const got = await accepted([...NOT_CLAIMED, '1.2.840.10008.1.1']);
    for (const uid of NOT_CLAIMED) expect(got.has(uid), uid).toBe(false);
    expect(got.has('1.2.840.10008.1.1')).toBe(true);
    for (const uid of NOT_CLAIMED) expect(claimedScpClasses().map((c) => c.uid)).not.toContain(uid);
  });
});
