import { useCallback, useEffect, useRef, useState } from 'react';
import type { MediaProblem, PickedFile } from './media-scan';
import { scanFiles } from './scan-files';
import { groupStudies, scanError, type FoundStudy } from './studies';
import type { ScanErrorKey } from './wizard-state';

/** What a scan of a selection found: the Files to upload (`files[i]` for index i) and their studies. */
export interface MediaScanOutcome {
  files: File[];
  studies: FoundStudy[];
  error: ScanErrorKey | null;
  problems: MediaProblem[];
  /**
   * PDF, JPEG, PNG and MP4 files found, picked or inside a ZIP (ZIP entries as Files named by their
   * path, `exams.zip/letter.pdf`; send them through `uploadBody`). Pages that take documents offer
   * them with the patient form; the others count them among the other files.
   */
  documents: File[];
  /** Files read that are neither DICOM nor documents, or that a DICOMDIR leaves out (a viewer, autorun, itself). */
  otherFiles: number;
}

const cannotLoad: MediaScanOutcome = {
  files: [],
  studies: [],
  error: 'uploadCannotLoad',
  problems: [],
  documents: [],
  otherFiles: 0,
};

/**
 * Scans picked or dropped media in the header worker (folders, ZIPs, ZIPs inside ZIPs, CDs with a
 * DICOMDIR) and groups what it found into studies: the one scan the upload wizard and the public
 * request-link page share. A new selection aborts the scan still running; leaving the page too.
 */
export function useMediaScan(onScanned: (outcome: MediaScanOutcome) => void) {
  const [progress, setProgress] = useState<{ done: number; total: number } | null>(null);
  const scan = useRef<AbortController | null>(null);
  // The latest callback, so `load` keeps its identity across renders.
  const report = useRef(onScanned);
  useEffect(() => {
    report.current = onScanned;
  }, [onScanned]);
  useEffect(() => () => scan.current?.abort(), []);

  const load = useCallback(async (picked: PickedFile[]) => {
    scan.current?.abort();
    const controller = new AbortController();
    scan.current = controller;
    setProgress({ done: 0, total: picked.length });
    try {
      const { result, files, documents } = await scanFiles(
        picked,
        (done, total) => setProgress({ done, total }),
        controller.signal,
      );
      const studies = groupStudies(result.parsed, (i) => files[i]?.size ?? 0);
      report.current({
        files,
        studies,
        error: scanError(result, studies.length),
        problems: result.problems,
        documents,
        otherFiles: Math.max(
          0,
          result.fileCount - result.parsed.length - result.unreadable - documents.length,
        ),
      });
    } catch (cause) {
      if (controller.signal.aborted) return;
      console.warn('scan failed', cause);
      report.current(cannotLoad);
    } finally {
      if (scan.current === controller) setProgress(null);
    }
  }, []);

  /** A selection that could not even be listed (a drop the browser refused to walk). */
  const failed = useCallback(() => report.current(cannotLoad), []);

  return { progress, load, failed };
}
