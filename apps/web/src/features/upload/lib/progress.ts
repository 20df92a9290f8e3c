import { MEGABYTE } from '@imaging-inbox/contract';

export interface UploadProgress {
  uploadedMb: string;
  totalMb: string;
  percent: number;
}

/** Uploaded of total in MB (one decimal) and a whole percent, clamped to 0..100. */
export function uploadProgress(uploadedBytes: number, totalBytes: number): UploadProgress {
  const percent =
    totalBytes > 0 ? Math.min(100, Math.max(0, Math.floor((uploadedBytes / totalBytes) * 100))) : 0;
  return {
    uploadedMb: (uploadedBytes / MEGABYTE).toFixed(1),
    totalMb: (totalBytes / MEGABYTE).toFixed(1),
    percent,
  };
}
