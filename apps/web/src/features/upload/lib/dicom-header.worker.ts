/// <reference lib="webworker" />
import { isUploadCandidate } from '../../../lib/run-queue';
import { HEADER_BYTES, parseDicomHeader } from './dicom-header';
import type { ParsedFile, ScanResult } from './studies';

/** Main thread → worker: the picked files (handles only; contents are read here, slice by slice). */
export interface ScanRequest {
  files: File[];
}

export type ScanMessage = { type: 'progress'; done: number; total: number } | ({ type: 'done' } & ScanResult);

const PROGRESS_EVERY = 25;

async function readHeader(file: File) {
  const head = new Uint8Array(await file.slice(0, HEADER_BYTES).arrayBuffer());
  return parseDicomHeader(head);
}

self.onmessage = async (event: MessageEvent<ScanRequest>) => {
  const { files } = event.data;
  const parsed: ParsedFile[] = [];
  let unreadable = 0;
  for (let index = 0; index < files.length; index++) {
    const file = files[index]!;
    if (isUploadCandidate(file)) {
      try {
        const header = await readHeader(file);
        if (header) parsed.push({ index, header });
      } catch {
        unreadable++;
      }
    }
    if ((index + 1) % PROGRESS_EVERY === 0) {
      self.postMessage({ type: 'progress', done: index + 1, total: files.length } satisfies ScanMessage);
    }
  }
  self.postMessage({ type: 'done', fileCount: files.length, parsed, unreadable } satisfies ScanMessage);
};
