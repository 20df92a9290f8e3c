import { randomBytes } from 'node:crypto';
import type { Readable } from 'node:stream';
import type { ImageUploadAnswer, UploadOffsetErrorData, UploadSessionAnswer } from '@imaging-inbox/contract';
import { MAX_UPLOAD_CHUNK_BYTES, UPLOAD_RESUME_HEAD_BYTES } from '@imaging-inbox/contract';
import { DomainError } from '../domain/errors.js';
import type { IndexTarget } from '../repositories/ingest.repository.js';
import type {
  UploadSessionRow,
  UploadSessionsRepository,
} from '../repositories/upload-sessions.repository.js';
import { hashToken, newSecretToken } from '../security/tokens.js';
import { ChunkLengthError, type UploadChunks } from '../storage/upload-chunk-store.js';
import type { IngestResult, IngestService } from './ingest.service.js';
import { LINK_SOURCE_KIND, linkIndexTarget } from './link-source.js';

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
  source: { kind: 'upload' | typeof LINK_SOURCE_KIND; userId: string | null };
}

export interface UploadSessionDeps {
  repo: UploadSessionsRepository;
  chunks: UploadChunks;
  ingest: IngestService;
  limits: UploadSessionLimits;
  /** The answer of a stored file, the same as the single-request upload's. */
  answerOf: (result: IngestResult) => ImageUploadAnswer;
  now?: () => number;
}

const offsetError = (row: Pick<UploadSessionRow, 'received' | 'size'>, why: string) =>
  new DomainError('UPLOAD_OFFSET_MISMATCH', why, {
    received: row.received,
    size: row.size,
  } satisfies UploadOffsetErrorData);

const missing = () => new DomainError('NOT_FOUND', 'upload session');

/** 409 with the committed offset: another request is appending here; ask status and go on. */
const inProgress = (row: Pick<UploadSessionRow, 'received' | 'size'>) =>
  new DomainError('UPLOAD_CHUNK_IN_PROGRESS', 'another append to this upload is running', {
    received: row.received,
    size: row.size,
  } satisfies UploadOffsetErrorData);

const resumeMismatch = (why: string) => new DomainError('UPLOAD_RESUME_MISMATCH', why);

/**
 * How long an append's claim holds without renewal: only a process that died mid-append lets it
 * lapse (a live one renews it every third of this while the body streams in).
 */
export const UPLOAD_CLAIM_LEASE_MS = 30_000;

/** How many first bytes of a file of `size` its head hash covers. */
const headBytes = (size: number) => Math.min(size, UPLOAD_RESUME_HEAD_BYTES);

const HEX_SHA256 = /^[0-9a-f]{64}$/;

function checkedHead(head: string | undefined): string | null {
  if (head === undefined || head === '') return null;
  if (!HEX_SHA256.test(head)) throw new DomainError('INVALID_FIELD', 'head_sha256', 'a hex SHA-256');
  return head;
}

/**
 * Resumable uploads: create a session for a file of known size, append chunks at the offset the
 * server holds (a repeated chunk is answered, a gap or overlap refused), ask the held offset after
 * a drop, and complete, which hands the assembled file to the single ingest pipeline. Appends and
 * completes of one session are serialised in this process; across processes an append first
 * claims the offset by a compare-and-set on the session row, streams into its own staging file,
 * and commits by a second compare-and-set, so two appends never both write the session's file.
 * The head hash declared at create ties the session to one file: a resume by another file, or a
 * first chunk that does not match, is refused with UPLOAD_RESUME_MISMATCH.
 */
export class UploadSessionService {
  private readonly now: () => number;
  private readonly locks = new Map<string, Promise<unknown>>();

  constructor(private readonly deps: UploadSessionDeps) {
    this.now = deps.now ?? Date.now;
  }

  async create(
    owner: UploadOwner,
    to: UploadTarget,
    size: number,
    headSha256?: string,
  ): Promise<UploadSessionAnswer> {
    const { limits } = this.deps;
    const head = checkedHead(headSha256);
    if (!Number.isSafeInteger(size) || size <= 0) {
      throw new DomainError('INVALID_FIELD', 'size', 'a whole number of bytes above 0');
    }
    if (size > limits.maxFileBytes)
      throw new DomainError('FILE_TOO_LARGE', `at most ${limits.maxFileBytes} bytes`);
    const now = this.now();
    const mine = await this.deps.repo.openBytes(now, owner.key);
    if (mine.sessions >= limits.ownerSessions || mine.bytes + size > limits.ownerBytes) {
      throw new DomainError('UPLOAD_QUOTA_EXCEEDED', 'complete or let expire some open uploads first');
    }
    const all = await this.deps.repo.openBytes(now);
    if (all.bytes + size > limits.totalBytes) {
      throw new DomainError('UPLOAD_QUOTA_EXCEEDED', 'the server holds too many unfinished uploads');
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
      claim: null,
      claim_expires: null,
      head_sha256: head,
    });
    return { status: 'OK', id, size, received: 0, expires, completed: 0 };
  }

  /**
   * How many bytes the server holds. With `headSha256` (the resuming file's head hash) it also
   * checks that the session is this file's: a session declared for another head, or whose arrived
   * head bytes differ, is refused with UPLOAD_RESUME_MISMATCH so the client starts over.
   */
  async status(owner: UploadOwner, id: string, headSha256?: string): Promise<UploadSessionAnswer> {
    const head = checkedHead(headSha256);
    const row = await this.load(owner, id);
    if (head !== null) {
      const held = row.head_sha256 ?? (await this.arrivedHead(row));
      if (held !== null && held !== head) {
        throw resumeMismatch('this upload session holds the start of another file');
      }
    }
    return present(id, row);
  }

  /** The head hash of the bytes that arrived, once all of the head did (else null: unknown yet). */
  private async arrivedHead(row: UploadSessionRow): Promise<string | null> {
    const n = headBytes(row.size);
    return row.received >= n ? this.deps.chunks.sha256(row.id_hash, n) : null;
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
      throw new DomainError('INVALID_FIELD', 'offset', 'a whole number of bytes, 0 or more');
    }
    if (!Number.isSafeInteger(length) || length <= 0) {
      throw new DomainError('FILE_CONTENT_EMPTY', 'send the chunk with its Content-Length');
    }
    if (length > MAX_UPLOAD_CHUNK_BYTES) {
      throw new DomainError('FILE_TOO_LARGE', `chunks of at most ${MAX_UPLOAD_CHUNK_BYTES} bytes`);
    }
    return this.locked(hashToken(id), async () => {
      const row = await this.load(owner, id);
      if (row.answer !== null) throw offsetError(row, 'the upload is already complete');
      if (offset + length > row.size) {
        throw new DomainError('FILE_TOO_LARGE', `the file was declared as ${row.size} bytes`, {
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
      const now = this.now();
      const token = randomBytes(16).toString('hex');
      if (!(await this.deps.repo.claim(row.id_hash, offset, token, now, now + UPLOAD_CLAIM_LEASE_MS))) {
        // Another process appends here, or just did: answer from what is committed now.
        body.resume();
        const current = await this.load(owner, id);
        if (offset + length <= current.received) return present(id, current);
        if (current.received !== offset) throw offsetError(current, 'another append moved the offset');
        throw inProgress(current);
      }
      const expires = await this.appendClaimed(row, token, offset, length, body);
      return present(id, { ...row, received: offset + length, expires });
    });
  }

  /**
   * The claimed part of an append: stage the body, check the claim still holds, place the bytes at
   * the offset, check the file's head against the declared hash once it is whole, and commit.
   * Whatever fails or is refused gives the claim up and leaves `received` where it was.
   */
  private async appendClaimed(
    row: UploadSessionRow,
    token: string,
    offset: number,
    length: number,
    body: Readable,
  ): Promise<number> {
    const { repo, chunks } = this.deps;
    const lease = () => this.now() + UPLOAD_CLAIM_LEASE_MS;
    const renewal = setInterval(() => {
      repo.renewClaim(row.id_hash, token, lease()).catch(() => undefined);
    }, UPLOAD_CLAIM_LEASE_MS / 3);
    let committed = false;
    try {
      try {
        await chunks.stage(row.id_hash, token, length, body);
      } catch (error) {
        if (error instanceof ChunkLengthError) {
          throw new DomainError(
            'INVALID_FIELD',
            'content-length',
            'the body does not match its Content-Length',
          );
        }
        throw error;
      } finally {
        clearInterval(renewal);
      }
      // A claim that lapsed while the body streamed (this process stalled) may have been taken over.
      if (!(await repo.renewClaim(row.id_hash, token, lease()))) throw inProgress(row);
      // A file that arrives whole in one chunk becomes the session's file as it was staged.
      if (offset === 0 && length === row.size) await chunks.placeWhole(row.id_hash, token);
      else await chunks.place(row.id_hash, token, offset);
      const n = headBytes(row.size);
      if (row.head_sha256 !== null && offset < n && offset + length >= n) {
        if ((await chunks.sha256(row.id_hash, n)) !== row.head_sha256) {
          throw resumeMismatch(
            'these bytes are not the start of the file this upload session was opened for',
          );
        }
      }
      const expires = this.now() + this.deps.limits.ttlMs;
      if (!(await repo.advance(row.id_hash, offset, offset + length, expires, token))) {
        throw offsetError(row, 'another append moved the offset');
      }
      committed = true;
      return expires;
    } finally {
      await chunks.discardStaged(row.id_hash, token);
      if (!committed) await repo.releaseClaim(row.id_hash, token);
    }
  }

  /**
   * Ingests the assembled file through the single ingest pipeline and answers like the
   * single-request upload. A file that does not parse is refused and removed with its session;
   * a completed session answers the same result again until it expires.
   */
  async complete(
    owner: UploadOwner,
    id: string,
    ip: string,
    /** What the file is stored as instead (a de-identifying request link; IngestService.ingestRewritten). */
    rewrite?: (bytes: Uint8Array) => Promise<Uint8Array>,
  ): Promise<ImageUploadAnswer> {
    return this.locked(hashToken(id), async () => {
      const row = await this.load(owner, id);
      if (row.answer !== null) return JSON.parse(row.answer) as ImageUploadAnswer;
      if (row.received !== row.size) {
        throw new DomainError('UPLOAD_INCOMPLETE', `${row.size - row.received} bytes missing`, {
          received: row.received,
          size: row.size,
        } satisfies UploadOffsetErrorData);
      }
      const { chunks } = this.deps;
      const temp = await chunks.assemble(row.id_hash, row.size);
      let result: IngestResult;
      try {
        const target =
          row.source === LINK_SOURCE_KIND
            ? linkIndexTarget({ accountId: row.account_id, namespaceId: row.namespace_id })
            : { accountId: row.account_id, namespaceId: row.namespace_id };
        const source = { kind: row.source, userId: row.user_id, ip };
        result = rewrite
          ? await this.deps.ingest.ingestRewritten(temp, target, source, rewrite)
          : await this.deps.ingest.ingestTemp(temp, target, source);
      } catch (error) {
        // The pipeline removed or moved the file, whatever failed: nothing is left to resume.
        await chunks.remove(row.id_hash);
        await this.deps.repo.remove(row.id_hash);
        throw error;
      }
      const answer = this.deps.answerOf(result);
      await this.deps.repo.setAnswer(row.id_hash, JSON.stringify(answer));
      // Chunks kept apart from the file the ingest took (on the object store) go now.
      await chunks.remove(row.id_hash);
      return answer;
    });
  }

  /** Removes expired sessions and their files, temp files no row knows (a crash mid-create) and staging files a dead append left. */
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
    const { staleIds: stale } = await this.deps.chunks.sweepStale(now - this.deps.limits.ttlMs);
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
