import { scanMedia, type PickedFile } from './media-scan';
import type { ScanMessage, ScanRequest } from './dicom-header.worker';

/**
 * jsdom has no Web Worker: this stand-in runs the header worker's real scan (`scanMedia`) on the
 * test's thread and answers with the same messages. Its final answer waits for `release()`, so a
 * test can act while a scan is still running. Install with `vi.stubGlobal('Worker', ...)`.
 */
export function inThreadScanWorker() {
  let open: () => void = () => undefined;
  const gate = new Promise<void>((resolve) => (open = resolve));
  const started: InThreadWorker[] = [];

  class InThreadWorker {
    onmessage: ((event: MessageEvent<ScanMessage>) => void) | null = null;
    onerror: ((event: ErrorEvent) => void) | null = null;
    terminated = false;
    private readonly received: PickedFile[] = [];

    constructor() {
      started.push(this);
    }

    postMessage(request: ScanRequest) {
      if (request.type === 'files') {
        this.received.push(...request.files);
        return;
      }
      void this.scan();
    }

    terminate() {
      this.terminated = true;
    }

    private async scan() {
      const result = await scanMedia(this.received, (done, total) =>
        this.send({ type: 'progress', done, total }),
      );
      await gate;
      this.send({ type: 'done', ...result });
    }

    private send(message: ScanMessage) {
      if (!this.terminated) this.onmessage?.({ data: message } as MessageEvent<ScanMessage>);
    }
  }

  return { Worker: InThreadWorker, release: () => open(), started };
}
