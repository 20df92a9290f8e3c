import dicomParser from 'dicom-parser';
import type { TestServer } from './test-server.js';
import { RawScu, storeCommand, datasetOf } from '../dimse/raw-scu.js';

/** Every way a DICOM file reaches the ingest pipeline from outside. */
export type IngestWay = 'upload' | 'stow' | 'cstore' | 'link';
export const INGEST_WAYS: IngestWay[] = ['upload', 'stow', 'cstore', 'link'];

/** What a sender was told: the HTTP status (or the DIMSE status over C-STORE) and the error type. */
export interface Delivery {
  way: IngestWay;
  status: number;
  stored: boolean;
  errorType?: string;
  /** The STOW-RS Failure Reason (0008,1197) of the part, when refused. */
  failureReason?: number;
  /** The DICOM listener closed the association instead of answering. */
  aborted?: boolean;
}

const CT_IMAGE_STORAGE = '1.2.840.10008.5.1.4.1.1.2';
const EXPLICIT_LE = '1.2.840.10008.1.2.1';
const BOUNDARY = 'ingest-ways-5d1e';
/** The dataset goes out in PDVs of this size (below the listener's 256 KB PDU limit). */
const PDV_BYTES = 60 * 1024;

/**
 * Sends files into a test server by upload, STOW-RS, C-STORE (a registered sender, the raw SCU so
 * any bytes go out as they are) and a request link's public upload.
 */
export class IngestWays {
  private constructor(
    private readonly server: TestServer,
    readonly sid: string,
    readonly namespaceId: string,
    private readonly grant: string,
  ) {}

  /** Signs in as the demo clinician and opens a request link to Emergency (for the link upload). */
  static async open(server: TestServer): Promise<IngestWays> {
    const sid = await server.api.login('clinician@demo.local');
    const namespaceId = await server.api.namespaceOf(sid, 'Emergency');
    const email = `ways-${Math.random().toString(36).slice(2, 8)}@hospital.example`;
    const added = await server.api.call(
      'link/add',
      {
        namespace_id: namespaceId,
        action: 'STUDY_UPLOAD',
        email,
        max_hits: 1000,
        minutes_alive: 600,
        message: 'Images, please',
        notify: 0,
      },
      sid,
    );
    if (added.status !== 200) throw new Error(`link/add: ${JSON.stringify(added.body)}`);
    const mail = await server.ctx.db.kysely
      .selectFrom('outbox')
      .select('body')
      .where('to_address', '=', email)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    const token = /\/link\/([A-Za-z0-9_-]+)/.exec(mail.body)![1]!;
    const unlocked = await server.api.call('link/public/unlock', { token });
    if (unlocked.status !== 200) throw new Error(`unlock: ${JSON.stringify(unlocked.body)}`);
    return new IngestWays(server, sid, namespaceId, unlocked.body.grant as string);
  }

  send(way: IngestWay, bytes: Uint8Array): Promise<Delivery> {
    switch (way) {
      case 'upload':
        return this.http(way, `/api/v3/storage/namespace/${this.namespaceId}/image?sid=${this.sid}`, bytes);
      case 'link':
        return this.http(way, '/api/v3/link/public/upload', bytes, { 'x-link-grant': this.grant });
      case 'stow':
        return this.stow(bytes);
      case 'cstore':
        return this.cstore(bytes);
    }
  }

  private async http(
    way: IngestWay,
    pathName: string,
    bytes: Uint8Array,
    headers: Record<string, string> = {},
  ): Promise<Delivery> {
    const response = await fetch(`${this.server.url}${pathName}`, {
      method: 'POST',
      headers: { 'content-type': 'application/dicom', ...headers },
      body: bytes,
    });
    const body = (await response.json().catch(() => ({}))) as { error_type?: string };
    return {
      way,
      status: response.status,
      stored: response.status === 202,
      ...(body.error_type ? { errorType: body.error_type } : {}),
    };
  }

  private async stow(bytes: Uint8Array): Promise<Delivery> {
    const body = Buffer.concat([
      Buffer.from(`--${BOUNDARY}\r\nContent-Type: application/dicom\r\n\r\n`),
      Buffer.from(bytes),
      Buffer.from(`\r\n--${BOUNDARY}--\r\n`),
    ]);
    const response = await fetch(`${this.server.url}/dicomweb/studies?namespace=${this.namespaceId}`, {
      method: 'POST',
      headers: {
        'content-type': `multipart/related; type="application/dicom"; boundary=${BOUNDARY}`,
        accept: 'application/dicom+json',
        authorization: `Bearer ${this.sid}`,
      },
      body,
    });
    const text = await response.text();
    const json = text ? (JSON.parse(text) as Record<string, { Value?: any[] }>) : {};
    const reason = json['00081198']?.Value?.[0]?.['00081197']?.Value?.[0] as number | undefined;
    return {
      way: 'stow',
      status: response.status,
      stored: response.status === 200,
      ...(reason !== undefined ? { failureReason: reason } : {}),
    };
  }

  /**
   * C-STORE of the file's dataset in the transfer syntax its meta header names (Explicit VR Little
   * Endian, CT Image Storage and a made-up UID where the header cannot be read: any bytes go out).
   */
  private async cstore(bytes: Uint8Array): Promise<Delivery> {
    const meta = readMeta(bytes);
    const scu = await RawScu.connect(this.server.dicomPort);
    try {
      const accepted = await scu.associate('DEMO_GATEWAY', 'INBOX', [meta.sopClass], meta.syntax);
      if (accepted !== 0x02) return { way: 'cstore', status: -1, stored: false, aborted: true };
      const pieces: Buffer[] = [];
      for (let at = 0; at < meta.dataset.length; at += PDV_BYTES)
        pieces.push(meta.dataset.subarray(at, at + PDV_BYTES));
      if (pieces.length === 0) pieces.push(Buffer.alloc(0));
      await scu.sendPdus([
        [{ command: true, last: true, data: storeCommand(meta.sopClass, meta.sopInstance) }],
        ...pieces.map((data, i) => [{ command: false, last: i === pieces.length - 1, data }]),
      ]);
      const status = await scu.storeStatus().catch(() => -1);
      if (status === -1) return { way: 'cstore', status, stored: false, aborted: true };
      await scu.release().catch(() => undefined);
      return { way: 'cstore', status, stored: status === 0 };
    } finally {
      scu.destroy();
    }
  }
}

function readMeta(bytes: Uint8Array): {
  sopClass: string;
  sopInstance: string;
  syntax: string;
  dataset: Buffer;
} {
  const fallback = {
    sopClass: CT_IMAGE_STORAGE,
    sopInstance: `2.25.${Math.floor(Math.random() * 1e15)}`,
    syntax: EXPLICIT_LE,
    dataset: Buffer.from(bytes.length > 132 ? bytes.subarray(132) : bytes),
  };
  try {
    const meta = dicomParser.readPart10Header(bytes);
    const text = (tag: string) => meta.string(tag)?.replace(/[\s\0]+$/, '') ?? '';
    const sopClass = text('x00020002');
    const syntax = text('x00020010');
    const sopInstance = text('x00020003');
    return {
      sopClass: /^1\.2\.840\.10008\.5\.1\.4\.1\.1\./.test(sopClass) ? sopClass : CT_IMAGE_STORAGE,
      sopInstance: /^[0-9.]{1,64}$/.test(sopInstance) ? sopInstance : fallback.sopInstance,
      syntax: /^[0-9.]{1,64}$/.test(syntax) ? syntax : EXPLICIT_LE,
      dataset: datasetOf(bytes),
    };
  } catch {
    return fallback;
  }
}
