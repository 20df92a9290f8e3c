import type { Readable } from 'node:stream';
import type { ImageUploadAnswer, UploadOffsetErrorData, UploadSessionAnswer } from '@imaging-inbox/contract';
import { MAX_UPLOAD_CHUNK_BYTES } from '@imaging-inbox/contract';
import { ApiError } from '../http/errors.js';
import type { IndexTarget } from '../repositories/ingest.repository.js';
import type {
  UploadSessionRow,
  UploadSessionsRepository,
} from '../repositories/upload-sessions.repository.js';
import { hashToken, newSecretToken } from '../services/tokens.js';
import { ChunkLengthError, type UploadChunkStore } from '../storage/upload-chunk-store.js';
import type { IngestResult, IngestService } from './ingest.service.js';

export interface UploadSessionLimits {
  /** Largest file (declared size). */
  maxFileBytes: number;
  /** Bytes one owner may have in open sessions at once. */
  ownerBytes: number;
  /** Open sessions one owner may have at once. */
  ownerSessions: number;
  /** Bytes all open sessions together may reach: bounds the temp area under DATA_DIR. */
  totalBytes: number;
  /** An untouched session expires after this long; each append pushes it out again. */
  ttlMs: number;
}

/** Who may reach a session: the sign-in session or the link grant that opened it. */
export interface UploadOwner {
  key: string;
  /** Whether the caller may still upload into this namespace (checked on every call). */
  mayUploadTo: (namespaceId: string) => boolean;
}

/** Where a new session's file goes and who sends it. */
export interface UploadTarget {
  target: IndexTarget;
  source: { kind: 'upload' | 'link'; userId: string | null };
}

export interface UploadSessionDeps {
  repo: UploadSessionsRepository;
  chunks: UploadChunkStore;
  ingest: IngestService;
  limits: UploadSessionLimits;
  /** The answer of a stored file, the same as the single-request upload's. */
  answerOf: (result: IngestResult) => ImageUploadAnswer;
  now?: () => number;
}

const offsetError = (row: Pick<UploadSessionRow, 'received' | 'size'>, why: string) =>
  new ApiError('UPLOAD_OFFSET_MISMATCH', 412, why, {
    received: row.received,
    size: row.size,
  } satisfies UploadOffsetErrorData);

const missing = () => new ApiError('NOT_FOUND', 412, 'upload session');

/**
 * Resumable uploads: create a session for a file of known size, append chunks at the offset the
 * server holds (a repeated chunk is answered, a gap or overlap refused), ask the held offset after
 * a drop, and complete, which hands the assembled file to the single ingest pipeline. Appends and
 * completes of one session are serialised in this process; across processes the conditional
 * `advance` keeps the held offset exact.
 */
export class UploadSessionService {
  private readonly now: () => number;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: UploadSessionDeps) {
    this.now = deps.now ?? Date.now;
  }

  async create(owner: UploadOwner, to: UploadTarget, size: number): Promise<UploadSessionAnswer> {
    const { limits } = this.deps;
    if (!Number.isSafeInteger(size) || size <= 0) {
      throw new ApiError('INVALID_FIELD', 412, 'size', 'a whole number of bytes above 0');
    }
    if (size > limits.maxFileBytes)
      throw new ApiError('FILE_TOO_LARGE', 413, `at most ${limits.maxFileBytes} bytes`);
    const now = this.now();
    const mine = await this.deps.repo.openBytes(now, owner.key);
    if (mine.sessions >= limits.ownerSessions || mine.bytes + size > limits.ownerBytes) {
      throw new ApiError('UPLOAD_QUOTA_EXCEEDED', 412, 'complete or let expire some open uploads first');
    }
    const all = await this.deps.repo.openBytes(now);
    if (all.bytes + size > limits.totalBytes) {
      throw new ApiError('UPLOAD_QUOTA_EXCEEDED', 412, 'the server holds too many unfinished uploads');
    }
    const id = newSecretToken();
    const idHash = hashToken(id);
    const expires = now + limits.ttlMs;
    await this.deps.chunks.create(idHash);
    await this.deps.repo.insert({
      id_hash: idHash,
      owner: owner.key,
      account_id: to.target.accountId,
      namespace_id: to.target.namespaceId,
      source: to.source.kind,
      user_id: to.source.userId,
      size,
      received: 0,
      created: now,
      expires,
      answer: null,
    });
    return { status: 'OK', id, size, received: 0, expires, completed: 0 };
  }

  async status(owner: UploadOwner, id: string): Promise<UploadSessionAnswer> {
    return present(id, await this.load(owner, id));
  }

  /**
   * Appends `length` bytes at `offset`. The offset must be the held one; a chunk the server already
   * holds whole (a retry whose answer was lost) is answered without writing. Anything else is a gap
   * or an overlap and is refused with the held offset in error_data.
   */
  async append(
    owner: UploadOwner,
    id: string,
    offset: number,
    length: number,
    body: Readable,
  ): Promise<UploadSessionAnswer> {
    if (!Number.isSafeInteger(offset) || offset < 0) {
      throw new ApiError('INVALID_FIELD', 412, 'offset', 'a whole number of bytes, 0 or more');
    }
    if (!Number.isSafeInteger(length) || length <= 0) {
      throw new ApiError('FILE_CONTENT_EMPTY', 412, 'send the chunk with its Content-Length');
    }
    if (length > MAX_UPLOAD_CHUNK_BYTES) {
      throw new ApiError('FILE_TOO_LARGE', 413, `chunks of at most ${MAX_UPLOAD_CHUNK_BYTES} bytes`);
    }
    return this.locked(hashToken(id), async () => {
      const row = await this.load(owner, id);
      if (row.answer !== null) throw offsetError(row, 'the upload is already complete');
      if (offset + length > row.size) {
        throw new ApiError('FILE_TOO_LARGE', 413, `the file was declared as ${row.size} bytes`, {
          received: row.received,
          size: row.size,
        } satisfies UploadOffsetErrorData);
      }
      if (offset < row.received && offset + length <= row.received) {
        body.resume();
        return present(id, row);
      }
      if (offset !== row.received) {
        throw offsetError(row, offset > row.received ? 'gap before this chunk' : 'chunk overlaps held bytes');
      }
      try {
        await this.deps.chunks.writeAt(row.id_hash, offset, length, body);
      } catch (error) {
        if (error instanceof ChunkLengthError) {
          throw new ApiError(
            'INVALID_FIELD',
            412,
            'content-length',
            'the body does not match its Content-Length',
          );
        }
        throw error;
      }
      const expires = this.now() + this.deps.limits.ttlMs;
      if (!(await this.deps.repo.advance(row.id_hash, offset, offset + length, expires))) {
        throw offsetError(await this.load(owner, id), 'another append moved the offset');
      }
      return present(id, { ...row, received: offset + length, expires });
    });
  }

  /**
   * Ingests the assembled file through the single ingest pipeline and answers like the
   * single-request upload. A file that does not parse is refused and removed with its session;
   * a completed session answers the same result again until it expires.
   */
  async complete(owner: UploadOwner, id: string, ip: string): Promise<ImageUploadAnswer> {
    return this.locked(hashToken(id), async () => {
      const row = await this.load(owner, id);
      if (row.answer !== null) return JSON.parse(row.answer) as ImageUploadAnswer;
      if (row.received !== row.size) {
        throw new ApiError('UPLOAD_INCOMPLETE', 412, `${row.size - row.received} bytes missing`, {
          received: row.received,
          size: row.size,
        } satisfies UploadOffsetErrorData);
      }
      const { chunks } = this.deps;
      await chunks.truncate(row.id_hash, row.size);
      const temp = {
        path: chunks.pathOf(row.id_hash),
        size: row.size,
        sha256: await chunks.sha256(row.id_hash, row.size),
      };
      let result: IngestResult;
      try {
        result = await this.deps.ingest.ingestTemp(
          temp,
          {
            accountId: row.account_id,
            namespaceId: row.namespace_id,
            ...(row.source === 'link' ? { sourceAeTitle: 'LINK' } : {}),
          },
          { kind: row.source, userId: row.user_id, ip },
        );
      } catch (error) {
        // The pipeline removed or moved the file, whatever failed: nothing is left to resume.
        await chunks.remove(row.id_hash);
        await this.deps.repo.remove(row.id_hash);
        throw error;
      }
      const answer = this.deps.answerOf(result);
      await this.deps.repo.setAnswer(row.id_hash, JSON.stringify(answer));
      return answer;
    });
  }

  /** Removes expired sessions and their files, and temp files no row knows (a crash mid-create). */
  async sweep(): Promise<{ sessions: number; orphans: number }> {
    const now = this.now();
    let sessions = 0;
    for (;;) {
      const batch = (await this.deps.repo.expired(now, 200)).map((r) => r.id_hash);
      if (!batch.length) break;
      for (const idHash of batch) await this.deps.chunks.remove(idHash);
      await this.deps.repo.removeMany(batch);
      sessions += batch.length;
      if (batch.length < 200) break;
    }
    const stale = await this.deps.chunks.staleIds(now - this.deps.limits.ttlMs);
    const known = await this.deps.repo.existing(stale);
    const orphans = stale.filter((h) => !known.has(h));
    for (const idHash of orphans) await this.deps.chunks.remove(idHash);
    return { sessions, orphans: orphans.length };
  }

  private async load(owner: UploadOwner, id: string): Promise<UploadSessionRow> {
    if (!id) throw missing();
    const row = await this.deps.repo.find(hashToken(id), owner.key, this.now());
    // Someone else's session, an expired one and a group the caller lost all look missing.
    if (!row || !owner.mayUploadTo(row.namespace_id)) throw missing();
    return row;
  }

  /** Runs `work` after any earlier work on the same session in this process. */
  private async locked<T>(key: string, work: () => Promise<T>): Promise<T> {
    const previous = this.locks.get(key) ?? Promise.resolve();
    const next = previous.then(work, work);
    const tail = next.catch(() => undefined);
    this.locks.set(key, tail);
    try {
      return await next;
    } finally {
      if (this.locks.get(key) === tail) this.locks.delete(key);
    }
  }
}

function present(id: string, row: UploadSessionRow): UploadSessionAnswer {
  return {
    status: 'OK',
    id,
    size: row.size,
    received: row.received,
    expires: row.expires,
    completed: row.answer === null ? 0 : 1,
  };
}
