import fsp from 'node:fs/promises';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import { DicomParseError, readDicomHeader } from '../dicom/index.js';
import { authenticate } from '../http/api.js';
import { DomainError, isRefusal } from '../domain/errors.js';
import { collectParams } from '../http/params.js';
import type { GroupAccess } from '../policies/index.js';
import { requireUploadGroup } from '../policies/index.js';
import { BodyTooLargeError } from '../storage/blob-store.js';
import type { TempFile } from '../storage/blob-store.js';
import { MultipartError, parseMediaType, readMultipartRelated } from './multipart.js';
import type { RelatedPart } from './multipart.js';

/** Failure Reason (0008,1197) values of the Store Instances Response (PS3.18 / PS3.4 C-STORE statuses). */
export const STOW_FAILURE = {
  processingFailure: 0x0110,
  outOfResources: 0xa700,
  cannotUnderstand: 0xc000,
} as const;

interface Referenced {
  sopClassUid: string;
  sopInstanceUid: string;
  retrieveUrl: string;
}
interface Failed {
  sopClassUid?: string;
  sopInstanceUid?: string;
  reason: number;
}

/**
 * STOW-RS: `POST /dicomweb/studies?namespace=…` (and `/dicomweb/studies/{study}`, whose instances must
 * belong to that study) with a multipart/related body of application/dicom parts. Each part streams to
 * a temp file and goes through the one ingest pipeline; the answer is the standard Store Instances
 * Response in application/dicom+json: 200 all stored, 202 some failed, 409 none stored.
 */
export function stowRoutes(ctx: AppContext, app: FastifyInstance, maxPartBytes: number): void {
  void app.register((scope, _options, done) => {
    // The body is read here as a stream, whatever its declared type; the handler checks the type.
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    const handler = (request: FastifyRequest<{ Params: { study?: string } }>, reply: FastifyReply) =>
      store(ctx, request, reply, maxPartBytes);
    scope.post('/dicomweb/studies', handler);
    scope.post('/dicomweb/studies/:study', handler);
    done();
  });
}

async function store(
  ctx: AppContext,
  request: FastifyRequest<{ Params: { study?: string } }>,
  reply: FastifyReply,
  maxPartBytes: number,
) {
  const params = collectParams(request);
  const caller = await authenticate(ctx, request, params);
  const namespaceId = params['namespace']?.trim();
  if (!namespaceId) throw new DomainError('MISSING_FIELDS', 'namespace', ['namespace']);
  const group = requireUploadGroup(caller, namespaceId);

  const media = parseMediaType(request.headers['content-type']);
  const partType = media.params['type']?.toLowerCase();
  if (media.type !== 'multipart/related' || (partType !== undefined && partType !== 'application/dicom')) {
    throw new DomainError(
      'INVALID_FIELD',
      'content-type',
      'multipart/related; type="application/dicom"',
      'unsupported_media',
    );
  }
  const boundary = media.params['boundary'];
  if (!boundary || boundary.length > 200) throw new DomainError('INVALID_FIELD', 'boundary');

  const expectedStudy = request.params.study;
  const referenced: Referenced[] = [];
  const failed: Failed[] = [];
  const onPart = (part: RelatedPart) =>
    storePart(ctx, part, {
      group,
      userId: caller.user.uuid,
      ip: request.ip,
      expectedStudy,
      maxPartBytes,
    }).then((outcome) => void ('reason' in outcome ? failed.push(outcome) : referenced.push(outcome)));
  try {
    await readMultipartRelated(request.body as Readable, boundary, onPart);
  } catch (error) {
    if (error instanceof MultipartError) throw new DomainError('INVALID_FIELD', 'body', error.message);
    throw error;
  }
  if (referenced.length === 0 && failed.length === 0) throw new DomainError('FILE_CONTENT_EMPTY', 'no parts');

  const status = failed.length === 0 ? 200 : referenced.length === 0 ? 409 : 202;
  return reply
    .code(status)
    .type('application/dicom+json')
    .send(storeResponse(ctx.config.publicUrl, expectedStudy, referenced, failed));
}

async function storePart(
  ctx: AppContext,
  part: RelatedPart,
  o: {
    group: GroupAccess;
    userId: string;
    ip: string;
    expectedStudy: string | undefined;
    maxPartBytes: number;
  },
): Promise<Referenced | Failed> {
  const type = parseMediaType(part.headers['content-type'] ?? 'application/dicom').type;
  if (type !== 'application/dicom') return { reason: STOW_FAILURE.cannotUnderstand };
  let temp: TempFile;
  try {
    temp = await ctx.services.blobs.writeTemp(part.body, o.maxPartBytes);
  } catch (error) {
    if (error instanceof BodyTooLargeError) return { reason: STOW_FAILURE.outOfResources };
    throw error;
  }
  if (o.expectedStudy !== undefined) {
    // Checked before anything is stored: an instance of another study is refused, not filed.
    try {
      const header = await readDicomHeader(await fsp.readFile(temp.path), ctx.config.uploadMaxBytes);
      if (header.studyInstanceUid !== o.expectedStudy) {
        await ctx.services.blobs.discard(temp);
        return {
          sopClassUid: header.sopClassUid,
          sopInstanceUid: header.sopInstanceUid,
          reason: STOW_FAILURE.processingFailure,
        };
      }
    } catch (error) {
      if (!(error instanceof DicomParseError)) throw error;
      if (error.code === 'DECOMPRESSION_LIMIT') {
        await ctx.services.blobs.discard(temp);
        return { reason: STOW_FAILURE.outOfResources };
      }
      // Unreadable: ingestTemp below refuses it the same way as without a target study.
    }
  }
  try {
    const result = await ctx.services.ingest.ingestTemp(
      temp,
      { accountId: o.group.accountId, namespaceId: o.group.namespaceId },
      { kind: 'stow', userId: o.userId, ip: o.ip },
    );
    const p = result.parsed;
    return {
      sopClassUid: p.sopClassUid,
      sopInstanceUid: p.sopInstanceUid,
      retrieveUrl: `${ctx.config.publicUrl}/dicomweb/studies/${p.studyInstanceUid}/series/${p.seriesInstanceUid}/instances/${p.sopInstanceUid}`,
    };
  } catch (error) {
    // A part past a limit (a deflated part inflating past the ceiling) is more than this server
    // takes, not unreadable.
    if (error instanceof DomainError && error.kind === 'too_large')
      return { reason: STOW_FAILURE.outOfResources };
    if (isRefusal(error)) return { reason: STOW_FAILURE.cannotUnderstand };
    return { reason: STOW_FAILURE.processingFailure };
  }
}

type JsonElement = { vr: string; Value?: unknown[] };
type JsonDataset = Record<string, JsonElement>;

/** The Store Instances Response (PS3.18 10.5.3), DICOM JSON model. */
function storeResponse(
  publicUrl: string,
  study: string | undefined,
  referenced: Referenced[],
  failed: Failed[],
): JsonDataset {
  const answer: JsonDataset = {};
  if (study !== undefined)
    answer['00081190'] = { vr: 'UR', Value: [`${publicUrl}/dicomweb/studies/${study}`] };
  if (failed.length) {
    answer['00081198'] = {
      vr: 'SQ',
      Value: failed.map((f) => ({
        ...(f.sopClassUid ? { '00081150': { vr: 'UI', Value: [f.sopClassUid] } } : {}),
        ...(f.sopInstanceUid ? { '00081155': { vr: 'UI', Value: [f.sopInstanceUid] } } : {}),
        '00081197': { vr: 'US', Value: [f.reason] },
      })),
    };
  }
  if (referenced.length) {
    answer['00081199'] = {
      vr: 'SQ',
      Value: referenced.map((r) => ({
        '00081150': { vr: 'UI', Value: [r.sopClassUid] },
        '00081155': { vr: 'UI', Value: [r.sopInstanceUid] },
        '00081190': { vr: 'UR', Value: [r.retrieveUrl] },
      })),
    };
  }
  return answer;
}
