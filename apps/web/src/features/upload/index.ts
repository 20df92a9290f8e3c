// The upload feature's public face: other features and the app import only from here.
import { lazyPage } from '../../lib/lazy-page';

export const UploadPage = /* @__PURE__ */ lazyPage(
  () => import('./components/UploadPage'),
  (m) => m.UploadPage,
);

// The running upload and where the user may upload, for the navigation's upload button.
export { onUploadFinished, uploadStore, useUploadRun } from './upload-runtime';
export { uploadProgress } from './lib/progress';
export { uploadDestinations } from './api/destinations';

// The upload engine, for pages that take media outside the wizard (the request link): pick and
// scan media, show what was found, send the instances resumably.
export { MediaPicker } from './components/MediaPicker';
export { ScanSummary } from './components/ScanSummary';
export { useMediaScan, type MediaScanOutcome } from './lib/use-media-scan';
export type { PickedFile } from './lib/media-scan';
export { instancesOf } from './lib/studies';
export { linkUploadApi } from './api/upload-session';
export { onResumeUnavailable, sendFiles } from './lib/send-files';
export type { ResumableFile } from './lib/resumable-send';

// Documents (PDF, JPEG, PNG, MP4) sent with a patient and exam form.
export { PatientForm } from './wrap/PatientForm';
export { documentName, fileProblem } from './lib/document-files';
export { uploadBody } from './lib/media-file';
