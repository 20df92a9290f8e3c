import { saveBlob } from '../../../lib/save-blob';

export interface DownloadProgress {
  loaded: number;
  /** from Content-Length; null when the server did not say */
  total: number | null;
}

/** The file name of a Content-Disposition header, or the fallback. */
export function attachmentName(header: string | null, fallback: string): string {
  if (!header) return fallback;
  const star = /filename\*=UTF-8''([^;]+)/i.exec(header);
  if (star?.[1]) return decodeURIComponent(star[1]);
  const plain = /filename="?([^";]+)"?/i.exec(header);
  return plain?.[1] ?? fallback;
}

/** What a de-identified download left out (its X-Deidentification-Refused-* headers; 0 when absent). */
export interface RefusedFiles {
  burnedIn: number;
  unreadable: number;
}

export function refusedFiles(headers: Headers): RefusedFiles {
  const count = (name: string) => {
    const value = Number(headers.get(name));
    return Number.isInteger(value) && value > 0 ? value : 0;
  };
  return {
    burnedIn: count('X-Deidentification-Refused-Burned-In'),
    unreadable: count('X-Deidentification-Refused-Unreadable'),
  };
}

/** Percent done, 0..100, or null while the size is unknown. */
export function percent(progress: DownloadProgress): number | null {
  if (!progress.total) return null;
  return Math.min(100, Math.round((progress.loaded / progress.total) * 100));
}

/**
 * Opens a file's answer (`open`: through the api client, so a refusal throws with its error_type
 * and body, and an ended session signs out as any call does), counting the bytes of the body stream
 * against Content-Length for progress, then saves it through a Blob URL and an anchor. The whole
 * archive is held in memory as a Blob until it is saved: acceptable for the studies here, but a
 * study of several GB would be better handed to the browser's own download (a plain link) or a
 * service-worker stream.
 */
export async function downloadFile(
  open: (signal?: AbortSignal) => Promise<Response>,
  fallbackName: string,
  onProgress: (progress: DownloadProgress) => void,
  signal?: AbortSignal,
): Promise<{ name: string; size: number; refused: RefusedFiles }> {
  const response = await open(signal);
  const length = Number(response.headers.get('Content-Length'));
  const total = Number.isFinite(length) && length > 0 ? length : null;
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  let loaded = 0;
  onProgress({ loaded, total });
  if (response.body) {
    const reader = response.body.getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      chunks.push(value);
      loaded += value.byteLength;
      onProgress({ loaded, total });
    }
  }
  const name = attachmentName(response.headers.get('Content-Disposition'), fallbackName);
  const blob = new Blob(chunks, { type: response.headers.get('Content-Type') ?? 'application/zip' });
  saveBlob(blob, name);
  return { name, size: blob.size, refused: refusedFiles(response.headers) };
}
