import { describe, expect, it } from 'vitest';
import type { WrapUploadAnswer } from '@imaging-inbox/contract';
import { wrapSender } from './wrap-sender';

const answer = (studyUid: string): WrapUploadAnswer => ({
  status: 'OK',
  study_uid: studyUid,
  study_uuid: 'u',
  instances: [],
});

describe('wrapSender', () => {
  it('lets the first file create the study and sends the others into it', async () => {
    const calls: (string | null)[] = [];
    const send = wrapSender(async (_file, studyUid) => {
      calls.push(studyUid);
      await new Promise((r) => setTimeout(r, 5));
      return answer(studyUid ?? '2.25.7');
    });
    const signal = new AbortController().signal;
    const file = new File(['x'], 'a.pdf');
    await Promise.all([send(file, signal), send(file, signal), send(file, signal)]);
    expect(calls).toEqual([null, '2.25.7', '2.25.7']);
  });

  it('passes creation to the next file when the first one fails', async () => {
    const calls: (string | null)[] = [];
    let first = true;
    const send = wrapSender(async (_file, studyUid) => {
      calls.push(studyUid);
      await Promise.resolve();
      if (first) {
        first = false;
        throw new Error('network');
      }
      return answer(studyUid ?? '2.25.8');
    });
    const signal = new AbortController().signal;
    const file = new File(['x'], 'a.pdf');
    const results = await Promise.allSettled([send(file, signal), send(file, signal), send(file, signal)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'fulfilled', 'fulfilled']);
    expect(calls).toEqual([null, null, '2.25.8']);
  });
});
