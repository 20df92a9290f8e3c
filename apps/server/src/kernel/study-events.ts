import type { WebhookEvent } from '@imaging-inbox/contract';
import type { StoredInstance } from '../notifications/harvest-notifier.js';

/** What a module hears of the life of studies; each part is optional. */
export interface StudyEventListener {
  /** An instance was stored, from any source (ingest pipeline). */
  stored?(event: StoredInstance): Promise<void>;
  /** A copy of a study arrived in a group by a share or a delivered send. */
  shared?(copyUuid: string): Promise<void>;
  /** A workflow step a webhook may announce (pushed, nominated, rejected…). */
  happened?(event: WebhookEvent, studyUuid: string, detail: Record<string, unknown>): Promise<void>;
}

/**
 * The kernel's announcements of what happens to studies. Modules that cause an event call it here
 * and modules that act on one (routing, webhooks, the harvest mail) listen, so neither imports the
 * other and the composition root wires them in any order (decision 0059). Listeners run one after
 * another, in the order they were added.
 */
export class StudyEvents {
  private readonly listeners: StudyEventListener[] = [];

  listen(listener: StudyEventListener): void {
    this.listeners.push(listener);
  }

  async stored(event: StoredInstance): Promise<void> {
    for (const l of this.listeners) await l.stored?.(event);
  }

  async shared(copyUuid: string): Promise<void> {
    for (const l of this.listeners) await l.shared?.(copyUuid);
  }

  async happened(event: WebhookEvent, studyUuid: string, detail: Record<string, unknown>): Promise<void> {
    for (const l of this.listeners) await l.happened?.(event, studyUuid, detail);
  }
}
