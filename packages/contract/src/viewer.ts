/**
 * The embedded viewer: its short-lived study-scoped credential and the messages it exchanges with
 * the inbox page that hosts it in an iframe (SPEC.md section 2).
 */

/** Lifetime of a viewer token; the viewer asks its parent for a fresh one when a request answers 401. */
export const VIEWER_TOKEN_TTL_MS = 15 * 60 * 1000;

/** Viewer tokens carry this prefix so DICOMweb can tell them from session ids in a Bearer header. */
export const VIEWER_TOKEN_PREFIX = 'vt_';

/** Answer of `study/viewer/token`. */
export interface ViewerTokenAnswer {
  status: 'OK';
  token: string;
  /** Epoch milliseconds. */
  expires: number;
  storage_namespace: string;
  study_uid: string;
  phi_namespace: string;
}

/** Path of the viewer entry; the study follows in the hash (`#study/{storage}/{study_uid}/{phi}`). */
export const VIEWER_PATH = '/viewer/';

/** Viewer → parent: leave the viewer (back to the Summary tab). */
export interface CloseViewerMessage {
  action: 'close-viewer';
}
/** Viewer → parent: send me a (fresh) token for the study in my hash. */
export interface ViewerTokenRequestMessage {
  action: 'viewer-token-request';
}
/** Parent → viewer: the token to use for DICOMweb requests. */
export interface ViewerTokenMessage {
  action: 'viewer-token';
  token: string;
  expires: number;
}

export type ViewerToParentMessage = CloseViewerMessage | ViewerTokenRequestMessage;
