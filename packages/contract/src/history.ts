import type { AnswerPage } from './api-params.js';
/** One event of a study's history, as audit/object answers it (newest or oldest first). */
export interface AuditEvent {
  id: number;
  action: string;
  /** The object type: study, share, link… */
  type: string;
  /** Who did it: the user's name, or "System". */
  who: string;
  user_name: string | null;
  /** ISO 8601. */
  when: string;
  outcome: string;
  /** The event's detail; share events also carry their recipient's `target_name`. */
  detail: Record<string, unknown> | null;
}

export interface AuditObjectAnswer {
  status: 'OK';
  events: AuditEvent[];
  page: { number: number; rows: number; more: 0 | 1 };
}

/** One recipient a study is shared with inside the account, as study/share/list answers it. */
export interface StudyShare {
  uuid: string;
  type: 'user' | 'group';
  name: string;
  user_email?: string;
  message: string | null;
  /** Epoch milliseconds. */
  created: number;
}

export interface ShareListAnswer {
  status: 'OK';
  shares: StudyShare[];
  page: AnswerPage;
  /**
   * The exam's owner, shown as the fixed first entry of the share list (SPEC.md section 9): the
   * group (or personal namespace) the exam belongs to. It is no share and cannot be stopped.
   */
  owner: { namespace_id: string; name: string };
}

/** An account member a study could be shared with (study/share/who, type=user). */
export interface ShareableUser {
  uuid: string;
  name: string;
  user_email: string;
}

/** A group of the account a study could be shared with (study/share/who, type=group). */
export interface ShareableGroup {
  uuid: string;
  name: string;
  namespace_id: string;
  type: string;
}

/** tag/list: tag suggestions for what was typed. */
export interface TagListAnswer {
  status: 'OK';
  tags: { tag: string }[];
  page: { number: number; rows: number; more: 0 | 1 };
}
