import type { ViewerTokenMessage, ViewerToParentMessage } from '@imaging-inbox/contract';

/** Thrown for a message that is not JSON or not an object with a known `action`. */
export class ViewerMessageError extends Error {}

function parsed(data: unknown): Record<string, unknown> {
  let value = data;
  if (typeof data === 'string') {
    try {
      value = JSON.parse(data);
    } catch (error) {
      throw new ViewerMessageError(`not JSON: ${String(error)}`);
    }
  }
  if (!value || typeof value !== 'object') throw new ViewerMessageError('not an object');
  return value as Record<string, unknown>;
}

/**
 * A message from the viewer iframe (an object, or its JSON text as older viewers post). Unknown
 * actions answer null; anything unreadable throws ViewerMessageError.
 */
export function parseViewerToParent(data: unknown): ViewerToParentMessage | null {
  const message = parsed(data);
  if (message['action'] === 'close-viewer') return { action: 'close-viewer' };
  if (message['action'] === 'viewer-token-request') return { action: 'viewer-token-request' };
  return null;
}

/** A token message from the parent page, or null for anything else. */
export function parseParentToViewer(data: unknown): ViewerTokenMessage | null {
  let message: Record<string, unknown>;
  try {
    message = parsed(data);
  } catch {
    return null;
  }
  if (message['action'] !== 'viewer-token' || typeof message['token'] !== 'string') return null;
  return { action: 'viewer-token', token: message['token'], expires: Number(message['expires']) || 0 };
}
