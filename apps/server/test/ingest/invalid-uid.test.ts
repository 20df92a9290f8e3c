/**
 * Study, Series and SOP Instance UIDs that are not PS3.5 UIDs (issue 14, item 8) are refused by every
 * way in with INVALID_UID (a C-STORE failure status, a STOW-RS failed part) and change nothing: such
 * an instance would be stored and then never reached over DICOMweb again.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InstanceSpec } from '../../src/dicom/index.js';
import { buildInstance } from '../../src/dicom/index.js';
import { baseSpec } from '../dicom/support.js';
import { ingestState } from '../support/ingest-state.js';
import { INGEST_WAYS, IngestWays } from '../support/ingest-ways.js';
import type { Delivery, IngestWay } from '../support/ingest-ways.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

type UidField = 'studyInstanceUid' | 'seriesInstanceUid' | 'sopInstanceUid';

/** Each breaks PS3.5 9.1 a different way, in a different attribute. */
const BAD_UIDS: [UidField, string][] = [
  ['studyInstanceUid', '../../etc/passwd'],
  ['seriesInstanceUid', '1.2/3.4'],
  ['sopInstanceUid', '1.2.3\u00004'],
  ['studyInstanceUid', `1.${'2'.repeat(10_000)}`],
  ['sopInstanceUid', '1.2.03.4'],
  ['seriesInstanceUid', '1.2..3'],
  ['sopInstanceUid', `2.25.${'1'.repeat(60)}`],
];

/** The dataset's element tags (group, element) of each UID, as Explicit VR Little Endian writes them. */
const UID_TAGS: Record<UidField, [number, number]> = {
  studyInstanceUid: [0x0020, 0x000d],
  seriesInstanceUid: [0x0020, 0x000e],
  sopInstanceUid: [0x0008, 0x0018],
};

/**
 * The file with one UID element's value replaced byte for byte (the writer would cut a UID to 64
 * characters and tidy it; a sender need not). Explicit VR: tag, 'UI', 2-byte length, value.
 */
function withUid(file: Uint8Array, field: UidField, uid: string): Uint8Array {
  const [group, element] = UID_TAGS[field];
  const head = Buffer.alloc(6);
  head.writeUInt16LE(group, 0);
  head.writeUInt16LE(element, 2);
  head.write('UI', 4, 'latin1');
  const bytes = Buffer.from(file);
  // The dataset's element, not the meta header's Media Storage SOP Instance UID (0002,0003).
  const at = bytes.indexOf(head, 132 + 12);
  if (at < 0) throw new Error(`no ${field} element`);
  const oldLength = bytes.readUInt16LE(at + 6);
  const padded = uid.length % 2 ? `${uid}\0` : uid;
  const length = Buffer.alloc(2);
  length.writeUInt16LE(padded.length, 0);
  return Buffer.concat([
    bytes.subarray(0, at + 6),
    length,
    Buffer.from(padded, 'latin1'),
    bytes.subarray(at + 8 + oldLength),
  ]);
}

function expectRefused(delivery: Delivery): void {
  expect(delivery.stored, JSON.stringify(delivery)).toBe(false);
  if (delivery.way === 'upload' || delivery.way === 'link') {
    expect(delivery).toMatchObject({ status: 412, errorType: 'INVALID_UID' });
  } else if (delivery.way === 'stow') {
    expect(delivery).toMatchObject({ status: 409, failureReason: 0xc000 });
  } else {
    // Cannot understand: the sender should not send it again.
    expect(delivery).toMatchObject({ status: 0xc000 });
  }
}

describe.each(DIALECTS)('UIDs checked at every way in on %s', (dialect) => {
  let server: TestServer;
  let ways: IngestWays;

  beforeAll(async () => {
    server = await startTestServer(dialect);
    ways = await IngestWays.open(server);
  });
  afterAll(() => server?.stop());

  it.each(INGEST_WAYS)(
    '%s refuses an instance whose UID breaks PS3.5 and stores nothing',
    async (way: IngestWay) => {
      const before = await ingestState(server);
      for (const [index, [field, uid]] of BAD_UIDS.entries()) {
        const spec: Partial<InstanceSpec> = {
          studyInstanceUid: `2.25.7001.${index}`,
          seriesInstanceUid: `2.25.7001.${index}.1`,
          sopInstanceUid: `2.25.7001.${index}.1.1`,
          [field]: uid,
        };
        expectRefused(await ways.send(way, withUid(buildInstance(baseSpec(spec)), field, uid)));
      }
      expect(await ingestState(server)).toEqual(before);
    },
  );

  it.each(INGEST_WAYS)('%s still stores UIDs at the limits PS3.5 allows', async (way: IngestWay) => {
    const index = INGEST_WAYS.indexOf(way);
    const sixtyFour = `2.25.${'9'.repeat(59)}`.slice(0, 62) + `.${index}`;
    expect(sixtyFour).toHaveLength(64);
    const delivery = await ways.send(
      way,
      buildInstance(
        baseSpec({
          studyInstanceUid: `1.2.0.${index}`,
          seriesInstanceUid: `1.2.0.${index}.0`,
          sopInstanceUid: sixtyFour,
        }),
      ),
    );
    expect(
      delivery.status === 202 || delivery.status === 200 || delivery.status === 0,
      JSON.stringify(delivery),
    ).toBe(true);
  });
});
