import type { ShareCodeSettingsAnswer } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { notFound } from '../errors.js';
import { required } from '../params.js';

/** Namespace (group) calls that are not about studies. */
export function namespaceRoutes(ctx: AppContext, app: FastifyInstance): void {
  /**
   * namespace/share_code: the share code of the namespace's account and its share-code settings,
   * which the upload wizard reads to offer the non-DICOM upload. Members of the namespace only.
   */
  authedRoute(ctx, app, 'namespace/share_code', async ({ caller, params }) => {
    const [namespaceId] = required(params, 'namespace_id');
    const group = caller.groups.get(namespaceId);
    const account = group ? await ctx.repos.accounts.findAccount(group.accountId) : undefined;
    if (!group || !account) throw notFound('namespace');
    const answer: Omit<ShareCodeSettingsAnswer, 'status'> = {
      namespace_id: namespaceId,
      share_code: account.share_code,
      settings: { enable_dicom_wrapping: (await ctx.services.wrap.isEnabled(account.uuid)) ? '1' : '0' },
    };
    return answer;
  });
}
