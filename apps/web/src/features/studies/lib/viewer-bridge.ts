import type { ViewerTokenMessage } from '@imaging-inbox/contract';
import { parseViewerToParent } from '../../../lib/viewer-messages';

export interface ViewerBridge {
  /** This page's origin: only messages from it are accepted (SPEC.md section 2). */
  origin: string;
  /** The viewer iframe's window, to answer it and only it. */
  frame: () => Window | null;
  onClose: () => void;
  /** Fetch a token and hand it over with `reply`. */
  onTokenRequest: (reply: (message: ViewerTokenMessage) => void) => Promise<void>;
  log?: (message: string, detail: unknown) => void;
}

/**
 * The `message` listener of the page hosting the viewer: `close-viewer` closes it,
 * `viewer-token-request` is answered with a token. Other origins are ignored; a message that
 * cannot be parsed is logged, never thrown.
 */
export function viewerMessageHandler(bridge: ViewerBridge): (event: MessageEvent) => void {
  const log = bridge.log ?? ((message, detail) => console.error(message, detail));
  return (event) => {
    if (event.origin !== bridge.origin) return;
    let message;
    try {
      message = parseViewerToParent(event.data);
    } catch (error) {
      log('Could not read a message from the viewer', error);
      return;
    }
    if (!message) return;
    if (message.action === 'close-viewer') {
      bridge.onClose();
      return;
    }
    const frame = bridge.frame();
    // Tokens go to our own viewer iframe only, never to another same-origin window that asks.
    if (!frame || event.source !== frame) return;
    bridge
      .onTokenRequest((reply) => frame.postMessage(reply, bridge.origin))
      .catch((error: unknown) => log('Could not get a viewer token', error));
  };
}
