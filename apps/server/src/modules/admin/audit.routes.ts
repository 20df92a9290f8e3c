import {
  auditAccountRequest,
  auditFailedLoginsRequest,
  auditLogRequest,
  auditObjectRequest,
  auditUserRequest,
} from '@imaging-inbox/contract';
import type { AuditObjectAnswer } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';
import type { AuditLogFilter } from '../../audit/audit.repository.js';
import type { Caller } from '../../policies/index.js';
import { auditFilterOf } from './audit-filter.js';

/**
 * A study's history (Summary tab): its audit events, for callers who may view the study; and an
 * account's audit log (audit/log) for its privacy officers, as pages or a CSV file.
 */
export function auditRoutes(ctx: AppContext, app: FastifyInstance): void {
  /** The asked page of the asked account's log, under `filter`. */
  const logPage = (
    caller: Caller,
    input: { account_id: string; 'page.number': number; 'page.rows': number },
    filter: AuditLogFilter,
  ) => ctx.services.auditLog.page(caller, input.account_id, filter, input['page.number'], input['page.rows']);

  authedRoute(ctx, app, 'audit/log', auditLogRequest, async ({ caller, input, reply, filters }) => {
    const filter = auditFilterOf(filters);
    if (input.format === 'csv') {
      const csv = await ctx.services.auditLog.csv(caller, input.account_id, filter);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store')
        .send(csv);
    }
    return logPage(caller, input, filter);
  });

  // Ambra's names for the same log (its SDK's Audit.account, Audit.user, Audit.failedlogins): oldest
  // first unless `reverse=1`, as Ambra orders them.
  authedRoute(ctx, app, 'audit/account', auditAccountRequest, ({ caller, input, filters }) =>
    logPage(caller, input, { ...auditFilterOf(filters), oldestFirst: input.reverse !== 1 }),
  );

  authedRoute(ctx, app, 'audit/user', auditUserRequest, ({ caller, input, filters }) =>
    logPage(caller, input, {
      ...auditFilterOf(filters),
      userId: input.user_id,
      oldestFirst: input.reverse !== 1,
    }),
  );

  authedRoute(ctx, app, 'audit/failedlogins', auditFailedLoginsRequest, ({ caller, input, filters }) => {
    const filter = auditFilterOf(filters);
    return logPage(caller, input, {
      ...filter,
      actions: ['LOGIN'],
      outcome: 'FAILURE',
      from: Math.max(filter.from ?? 0, input.from_time ?? 0),
      oldestFirst: input.reverse !== 1,
    });
  });

  authedRoute(
    ctx,
    app,
    'audit/object',
    auditObjectRequest,
    async ({ caller, input, filters }): Promise<Omit<AuditObjectAnswer, 'status'>> => {
      const { uuid, rows, number } = input;
      await ctx.services.studyAccess.byUuid(caller, uuid);
      const events = await ctx.repos.audit.forObject(uuid, {
        actions: filters.find((f) => f.field === 'action')?.values,
        newestFirst: input.reverse,
        limit: rows + 1,
        offset: (number - 1) * rows,
      });
      const more = events.length > rows;
      const page = events.slice(0, rows).map((e) => ({
        ...e,
        parsed: e.detail ? (JSON.parse(e.detail) as Record<string, unknown>) : null,
      }));
      // Share events name their recipient by uuid; the history shows the name.
      const recipients = await ctx.repos.audit.recipientNames([
        ...new Set(
          page.flatMap((e) => (typeof e.parsed?.['target_id'] === 'string' ? [e.parsed['target_id']] : [])),
        ),
      ]);
      return {
        events: page.map((e) => ({
          id: e.id,
          action: e.action,
          type: e.object_type,
          who: e.user_name ?? 'System',
          user_name: e.user_name,
          when: new Date(e.at).toISOString(),
          outcome: e.outcome,
          detail:
            e.parsed && typeof e.parsed['target_id'] === 'string'
              ? { ...e.parsed, target_name: recipients.get(e.parsed['target_id']) ?? null }
              : e.parsed,
        })),
        page: { number, rows, more: more ? 1 : 0 },
      };
    },
  );
}
