import type { ViewerToParentMessage } from '@imaging-inbox/contract';
import { parseParentToViewer } from '../lib/viewer-messages';

/**
 * The viewer token, handed over by the inbox page that hosts the iframe (never in the URL). The
 * viewer asks with `viewer-token-request`; only same-origin answers from its parent count.
 */
export class ParentCredential {
  private token: string | undefined;
  private pending: ((token: string) => void)[] = [];

  constructor(private readonly win: Window = window) {
    win.addEventListener('message', this.onMessage);
  }

  get embedded(): boolean {
    return this.win.parent !== this.win;
  }

  /** The current token, asking the parent for one when there is none yet. */
  get(): Promise<string> {
    if (this.token) return Promise.resolve(this.token);
    return this.request();
  }

  /** Drops the token (it answered 401) and asks the parent for a fresh one. */
  refresh(): Promise<string> {
    this.token = undefined;
    return this.request();
  }

  post(message: ViewerToParentMessage): void {
    if (this.embedded) this.win.parent.postMessage(message, this.win.location.origin);
  }

  private request(): Promise<string> {
    if (!this.embedded) return Promise.reject(new Error('Open the viewer from the inbox.'));
    const answer = new Promise<string>((resolve) => this.pending.push(resolve));
    if (this.pending.length === 1) this.post({ action: 'viewer-token-request' });
    return answer;
  }

  private readonly onMessage = (event: MessageEvent) => {
    if (event.origin !== this.win.location.origin || event.source !== this.win.parent) return;
    const message = parseParentToViewer(event.data);
    if (!message) return;
    this.token = message.token;
    const waiting = this.pending;
    this.pending = [];
    for (const resolve of waiting) resolve(message.token);
  };
}
