import type { StudyHl7Message, StudyRouteRun } from '@imaging-inbox/contract';
import type { Caller } from '../../policies/index.js';
import { mayAdminister } from '../../policies/index.js';
import { mayOnOrders } from '../gatekeeper/index.js';
import type { ActivityEvent, StudyActivityRepository } from './study-activity.repository.js';

/** The most routes, and HL7 messages, one study answers (newest first). */
export const STUDY_ACTIVITY_CAP = 50;

export interface StudyActivity {
  routes: StudyRouteRun[];
  hl7: StudyHl7Message[];
}

/** The study fields this reads. */
interface StudyKey {
  uuid: string;
  account_id: string;
  accession_number: string;
}

/**
 * A study's `routes` and `hl7` (SPEC.md section 3, Study), for a page of studies in one statement
 * of three indexed reads, each bounded. Only what the caller may see: rule runs with route_view or route_edit in the
 * study's account, HL7 orders with order_view there; HL7 results with the study itself.
 */
export class StudyActivityService {
  constructor(private readonly repo: StudyActivityRepository) {}

  async of(caller: Caller, studies: readonly StudyKey[]): Promise<Map<string, StudyActivity>> {
    const out = new Map<string, StudyActivity>(studies.map((s) => [s.uuid, { routes: [], hl7: [] }]));
    if (!studies.length) return out;
    const cap = STUDY_ACTIVITY_CAP * studies.length;
    const routed = studies.filter((s) => mayAdminister(caller, s.account_id, 'route', 'view'));
    const accessioned = studies.filter((s) => s.accession_number !== '');
    const accounts = [...new Set(accessioned.map((s) => s.account_id))];
    const accessions = [...new Set(accessioned.map((s) => s.accession_number))];
    const orderAccounts = accounts.filter((a) => mayOnOrders(caller, a, 'order_view'));
    // One read for the page, newest first across all kinds.
    const events = await this.repo.pageEvents(
      { routed: routed.map((s) => s.uuid), accounts, accessions, orderAccounts },
      cap,
    );
    const messages: ActivityEvent[] = [];
    for (const event of events) {
      if (event.action !== 'ROUTE') {
        messages.push(event);
        continue;
      }
      const list = out.get(event.key)!.routes;
      if (list.length < STUDY_ACTIVITY_CAP) list.push(routeRun(event));
    }
    for (const study of accessioned) {
      const list = out.get(study.uuid)!.hl7;
      for (const event of messages) {
        if (list.length >= STUDY_ACTIVITY_CAP) break;
        if (event.key === study.accession_number && event.account_id === study.account_id)
          list.push(hl7Message(event));
      }
    }
    return out;
  }
}

function detailOf(event: ActivityEvent): Record<string, unknown> {
  try {
    const parsed: unknown = event.detail ? JSON.parse(event.detail) : {};
    return parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

const text = (v: unknown): string | null => (typeof v === 'string' ? v : null);

function routeRun(event: ActivityEvent): StudyRouteRun {
  const d = detailOf(event);
  const failed = event.outcome !== 'SUCCESS';
  return {
    route_id: text(d['route_id']) ?? '',
    route_name: text(d['route_name']) ?? '',
    trigger: text(d['trigger']) ?? '',
    action: text(d['action']),
    outcome: failed ? 'FAILURE' : 'SUCCESS',
    reason: failed ? (text(d['error']) ?? null) : null,
    at: new Date(Number(event.at)).toISOString(),
  };
}

function hl7Message(event: ActivityEvent): StudyHl7Message {
  const d = detailOf(event);
  const result = event.action === 'HL7_RESULT';
  return {
    type: result ? 'ORU^R01' : 'ORM^O01',
    control_id: text(d['control_id']) ?? '',
    event: event.action,
    status: result ? text(d['status']) : null,
    at: new Date(Number(event.at)).toISOString(),
  };
}
