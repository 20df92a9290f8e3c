import { describe, expect, it } from 'vitest';
import { retryFailed, runUpload, type UploadDeps } from './upload-runner';
import { StudyRegistration, type StudyRegistrar } from './study-registration';
import { createUploadStore } from './upload-store';

const file = (name: string) => new File([new Uint8Array(4)], name);
const study = (uid: string, names: string[]) => ({
  studyUid: uid,
  patientName: 'X',
  patientId: uid,
  description: '',
  files: names.map(file),
});
const target = { namespaceId: 'ns1', destinationName: 'Emergency' };

/** A server stand-in that logs every call in order. */
function world(options: { failing?: Set<string>; addFails?: Set<string>; syncFailsOnce?: boolean } = {}) {
  const log: string[] = [];
  let syncFailures = options.syncFailsOnce ? 1 : 0;
  const registrar: StudyRegistrar = {
    add: async (ns, uid) => {
      await Promise.resolve();
      log.push(`add ${ns} ${uid}`);
      if (options.addFails?.has(uid)) throw new Error('NETWORK_ERROR');
      return `uuid-${uid}`;
    },
    sync: async (uuid, count) => {
      await Promise.resolve();
      if (syncFailures-- > 0) {
        log.push(`sync ${uuid} failed`);
        throw new Error('NETWORK_ERROR');
      }
      log.push(`sync ${uuid} ${count}`);
    },
  };
  const deps: UploadDeps = {
    send: async (_ns, f) => {
      await Promise.resolve();
      log.push(`file ${f.name}`);
      if (options.failing?.has(f.name)) throw new Error('INVALID_DICOM');
      return { duplicate: false };
    },
    codeOf: (e) => (e as Error).message,
    retryable: (e) => (e as Error).message === 'NETWORK_ERROR',
    finished: (ok) => log.push(`finished ${ok}`),
    backoffMs: 0,
    registrar,
  };
  return { log, deps };
}

describe('study/add and study/sync around an upload', () => {
  it('creates each study before its first file and reports its image count after its last, then ends the run', async () => {
    const { log, deps } = world();
    await runUpload(createUploadStore(), target, [study('A', ['a1', 'a2']), study('B', ['b1'])], deps);
    const at = (entry: string) => log.indexOf(entry);
    expect(log.filter((e) => e.startsWith('add'))).toEqual(['add ns1 A', 'add ns1 B']);
    expect(at('add ns1 A')).toBeLessThan(at('file a1'));
    expect(at('add ns1 B')).toBeLessThan(at('file b1'));
    expect(at('sync uuid-A 2')).toBeGreaterThan(Math.max(at('file a1'), at('file a2')));
    expect(at('sync uuid-B 1')).toBeGreaterThan(at('file b1'));
    expect(log.at(-1)).toBe('finished true');
    expect(log.filter((e) => e.startsWith('sync'))).toHaveLength(2);
  });

  it('reports only the images that reached the server, and a retry reports the study whole', async () => {
    const failing = new Set(['a2']);
    const { log, deps } = world({ failing });
    const store = createUploadStore();
    await runUpload(store, target, [study('A', ['a1', 'a2', 'a3'])], deps);
    expect(log).toContain('sync uuid-A 2');
    expect(log.at(-1)).toBe('finished false');

    failing.clear();
    log.length = 0;
    await retryFailed(store, deps);
    // study/add again answers the study the first run made; the count is the study's, not the retry's.
    expect(log).toEqual(['add ns1 A', 'file a2', 'sync uuid-A 3', 'finished true']);
  });

  it('sends the files anyway when study/add fails, and has nothing to sync', async () => {
    const { log, deps } = world({ addFails: new Set(['A']) });
    const run = await runUpload(createUploadStore(), target, [study('A', ['a1'])], deps);
    expect(run.status).toBe('succeeded');
    expect(log).toEqual(['add ns1 A', 'file a1', 'finished true']);
  });

  it('leaves a study nothing reached unlisted: no sync, so a later upload can still fill it', async () => {
    const { log, deps } = world({ failing: new Set(['a1']) });
    await runUpload(createUploadStore(), target, [study('A', ['a1'])], deps);
    expect(log).toEqual(['add ns1 A', 'file a1', 'finished false']);
  });

  it('tries a sync that failed on the network again', async () => {
    const { log, deps } = world({ syncFailsOnce: true });
    await runUpload(createUploadStore(), target, [study('A', ['a1'])], deps);
    expect(log).toEqual(['add ns1 A', 'file a1', 'sync uuid-A failed', 'sync uuid-A 1', 'finished true']);
  });

  it('calls neither without a registrar (a wrapped upload, whose study the server makes)', async () => {
    const { log, deps } = world();
    await runUpload(createUploadStore(), target, [study('A', ['a1'])], { ...deps, registrar: undefined });
    expect(log).toEqual(['file a1', 'finished true']);
  });

  it('reports each study made and not yet synced with its full count when the page goes away', async () => {
    const synced: string[] = [];
    let leave = () => {};
    let unsubscribed = false;
    const registration = new StudyRegistration(
      {
        add: (_ns, uid) => Promise.resolve(`uuid-${uid}`),
        sync: () => Promise.resolve(),
        syncOnLeave: (uuid, count) => synced.push(`${uuid} ${count}`),
      },
      'ns1',
      [
        { studyUid: 'A', files: 3, alreadySent: 0 },
        { studyUid: 'B', files: 1, alreadySent: 0 },
        { studyUid: 'C', files: 2, alreadySent: 0 },
      ],
      {
        retryable: () => false,
        retries: 0,
        backoffMs: 0,
        onPageHide: (listener) => {
          leave = listener;
          return () => (unsubscribed = true);
        },
      },
    );
    await registration.before('A');
    await registration.before('B');
    registration.settled('A', true);
    registration.settled('B', true);
    // A has 1 of 3 files sent, B is over (synced normally), C was never made: only A is reported,
    // with the 3 images it should have, so the server lists it marked INCOMPLETE.
    leave();
    expect(synced).toEqual(['uuid-A 3']);
    registration.settled('A', true);
    registration.settled('A', false);
    await registration.done();
    expect(unsubscribed).toBe(true);
  });
});
