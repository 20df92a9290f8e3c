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
import { auditFilterOf } from './audit-filter.js';

/**
 * A study's history (Summary tab): its audit events, for callers who may view the study; and an
 * account's audit log (audit/log) for its privacy officers, as pages or a CSV file.
 */
export function auditRoutes(ctx: AppContext, app: FastifyInstance): void {
  authedRoute(ctx, app, 'audit/log', auditLogRequest, async ({ caller, input, reply }) => {
    const filter = {
      userId: input['filter.user_id'],
      objectId: input['filter.study_id'],
      actions: input['filter.action'],
      from: input['filter.from'],
      to: input['filter.to'],
    };
    if (input.format === 'csv') {
      const csv = await ctx.services.auditLog.csv(caller, input.account_id, filter);
      return reply
        .header('content-type', 'text/csv; charset=utf-8')
        .header('content-disposition', 'attachment; filename="audit-log.csv"')
        .header('cache-control', 'no-store')
        .send(csv);
    }
    return ctx.services.auditLog.page(
      caller,
      input.account_id,
      filter,
      input['page.number'],
      input['page.rows'],
    );
  });

  authedRoute(
    ctx,
    app,
    'audit/object',
    auditObjectRequest,
    async ({ caller, input }): Promise<Omit<AuditObjectAnswer, 'status'>> => {
      const { uuid, rows, number } = input;
      await ctx.services.studyAccess.byUuid(caller, uuid);
      const events = await ctx.repos.audit.forObject(uuid, {
        actions: input['filter.action.in'],
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
