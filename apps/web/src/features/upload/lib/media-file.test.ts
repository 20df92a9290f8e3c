import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { ImageUploadAnswer } from '@imaging-inbox/contract';
import type { UploadSessionApi } from '../api/upload-session';
import { filesOfSources, ZipEntryFile } from './media-file';
import { scanMedia } from './media-scan';
import { fileKey } from './file-identity';
import { memoryResumeStore } from './resume-store';
import { sendResumable } from './resumable-send';
import { buildTestDicom } from './test-dicom';
import { zipWithInfoZip } from './test-zip';

const answer: ImageUploadAnswer = {
  status: 'OK',
  study_uid: '1.2',
  series_uid: '1.2.3',
  sop_instance_uid: '1.2.3.4',
  study_uuid: 'u',
  duplicate: false,
};

/** A server that keeps the bytes it is sent, whole or in chunks. */
function recordingApi() {
  const received: Uint8Array[] = [];
  const api: UploadSessionApi = {
    create: (size) =>
      Promise.resolve({ status: 'OK', id: 's1', size, received: 0, expires: 0, completed: 0 }),
    status: () => Promise.reject(new Error('not used')),
    chunk: async (id, offset, bytes) => {
      received.push(new Uint8Array(await bytes.arrayBuffer()));
      const total = received.reduce((n, b) => n + b.length, 0);
      return { status: 'OK', id, size: 0, received: total, expires: 0, completed: 0 };
    },
    complete: () => Promise.resolve(answer),
    whole: async (file) => {
      received.push(new Uint8Array(await file.arrayBuffer()));
      return answer;
    },
  };
  return { api, bytes: () => Buffer.concat(received) };
}

describe('sending a deflated ZIP entry', () => {
  // Noise keeps the entry large after deflate; the chunk size makes it go in several chunks.
  const dicom = buildTestDicom(
    [
      [0x0020, 0x000d, 'UI', '1.2.9'],
      [0x0008, 0x0018, 'UI', '1.2.9.1'],
    ],
    300_000,
  );
  dicom.set(randomBytes(300_000), dicom.length - 300_000);

  async function entryFile(): Promise<File> {
    const picked = [{ file: new File([zipWithInfoZip({ 'X/IM1.dcm': dicom })], 'x.zip'), path: 'x.zip' }];
    const [file] = filesOfSources(picked, (await scanMedia(picked)).sources);
    expect(file).toBeInstanceOf(ZipEntryFile);
    expect(file!.size).toBe(dicom.length);
    return file!;
  }

  it('inflates the entry when it is sent and sends its original bytes in chunks', async () => {
    const { api, bytes } = recordingApi();
    const store = memoryResumeStore();
    await sendResumable({ file: await entryFile() }, { api, store, scope: 'ns', chunkBytes: 64 * 1024 });
    expect(bytes().equals(Buffer.from(dicom))).toBe(true);
  });

  it('does not inflate an entry an earlier page load already stored', async () => {
    const { api, bytes } = recordingApi();
    const store = memoryResumeStore();
    const file = await entryFile();
    await store.set('ns', await fileKey(file), { done: 1 });
    expect(await sendResumable({ file }, { api, store, scope: 'ns' })).toEqual({
      duplicate: false,
      skipped: true,
    });
    expect(bytes().length).toBe(0);
  });
});
