import { afterEach, describe, expect, it, vi } from 'vitest';
import { emptyPatientForm } from '@imaging-inbox/contract';
import { apiStub } from '../../../test/render';
import { wrapFile } from '../api/wrap-file';
import { startWrapUpload, uploadStore } from '../upload-runtime';
import { wrapSender } from '../wrap/wrap-sender';
import { UPLOAD_RUN_ERRORS } from './upload-errors';
import { runUpload, type UploadDeps } from './upload-runner';
import { createUploadStore } from './upload-store';

// The toasts the run's end shows need a mounted provider; here only the run's outcome is read.
vi.mock('notistack', async (original) => ({
  ...(await original<Record<string, unknown>>()),
  enqueueSnackbar: vi.fn(),
}));

const file = (name: string) => new File([new Uint8Array(10)], name);
const study = (files: File[]) => ({
  studyUid: 'S1',
  patientName: 'X',
  patientId: 'M',
  description: '',
  files,
});
const deps = (send: UploadDeps['send']) => ({
  send,
  codeOf: (e: unknown) => (e as Error).message,
  retryable: () => false,
  finished: vi.fn<(ok: boolean) => void>(),
  backoffMs: 0,
});

/** SPEC.md section 8: the upload codes a whole run ends with, each provoked here. */
describe('upload run errors', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('DICOM_INFO_NOT_FOUND: no namespace, no exam or no file; nothing is sent', async () => {
    const send = vi.fn(() => Promise.resolve({ duplicate: false }));
    const cases: [{ namespaceId: string; destinationName: string }, ReturnType<typeof study>[]][] = [
      [{ namespaceId: '', destinationName: 'Emergency' }, [study([file('a')])]],
      [{ namespaceId: 'ns1', destinationName: 'Emergency' }, []],
      [{ namespaceId: 'ns1', destinationName: 'Emergency' }, [study([])]],
    ];
    for (const [target, studies] of cases) {
      const store = createUploadStore();
      const d = deps(send);
      const run = await runUpload(store, target, studies, d);
      expect(run).toMatchObject({ status: 'failed', error: 'DICOM_INFO_NOT_FOUND', fileCount: 0 });
      expect(store.getSnapshot()).toEqual(run);
      expect(d.finished).toHaveBeenCalledWith(false);
    }
    expect(send).not.toHaveBeenCalled();
  });

  it('FILE_UPLOAD_FAILED when any file fails; a file keeps its own code; none on success', async () => {
    const d = deps((_ns, f) =>
      f.name === 'bad' ? Promise.reject(new Error('INVALID_DICOM')) : Promise.resolve({ duplicate: false }),
    );
    const run = await runUpload(
      createUploadStore(),
      { namespaceId: 'ns1', destinationName: 'Emergency' },
      [study([file('good'), file('bad')])],
      d,
    );
    expect(run).toMatchObject({ status: 'failed', error: UPLOAD_RUN_ERRORS.fileFailed });
    expect(run.failures.map((f) => f.code)).toEqual(['INVALID_DICOM']);

    const ok = await runUpload(
      createUploadStore(),
      { namespaceId: 'ns1', destinationName: 'Emergency' },
      [study([file('good')])],
      deps(() => Promise.resolve({ duplicate: false })),
    );
    expect(ok.status).toBe('succeeded');
    expect(ok.error).toBeUndefined();
  });

  it('NON_DICOM_UPLOAD_FAILED when the server does not accept a wrapped file', async () => {
    vi.stubGlobal(
      'fetch',
      apiStub({
        'storage/namespace/ns-wrap/wrap': () => [
          412,
          { status: 'ERROR', error_type: 'INVALID_FILE_TYPE', error_subtype: 'file' },
        ],
      }),
    );
    startWrapUpload(
      { namespaceId: 'ns-wrap', destinationName: 'Emergency' },
      { studyUid: 'wrap:1', patientName: 'LEE^ANN', patientId: 'MRN-1', description: '' },
      [new File(['%PDF-1.4'], 'report.pdf', { type: 'application/pdf' })],
      wrapSender((f, uid, signal) => wrapFile('ns-wrap', emptyPatientForm, f, uid, signal)),
    );
    await vi.waitFor(() => expect(uploadStore.getSnapshot()?.status).toBe('failed'));
    expect(uploadStore.getSnapshot()).toMatchObject({
      error: 'NON_DICOM_UPLOAD_FAILED',
      failures: [{ name: 'report.pdf', code: 'INVALID_FILE_TYPE' }],
    });
  });
});
