import { engineFqdnRequest, shareCodeRequest } from '@imaging-inbox/contract';
import type { ShareCodeSettingsAnswer } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import { notFound } from '../../domain/errors.js';
import { requireGroup } from '../../policies/index.js';

/** Namespace (group) calls that are not about studies. */
export function namespaceRoutes(ctx: AppContext, app: FastifyInstance): void {
  /**
   * namespace/share_code (SPEC section 7: namespace_id or share_code):
   * - share_code: whom a code reaches (a group of any account), for Send exams; any signed-in user
   *   may look one up, as they would type it from a referral letter. Unknown: NAMESPACE_NOT_FOUND.
   * - namespace_id: the namespace's share code (its own, else its account's) and share-code
   *   settings, which the upload wizard reads to offer the non-DICOM upload. Members only.
   */
  authedRoute(ctx, app, 'namespace/share_code', shareCodeRequest, async ({ caller, input }) => {
    if (input.by === 'code') return ctx.services.sends.lookup(input.code);
    const { namespaceId } = input;
    const group = requireGroup(caller, namespaceId);
    const account = await ctx.repos.accounts.findAccount(group.accountId);
    if (!account) throw notFound('namespace');
    const target = await ctx.repos.sends.byNamespace(namespaceId);
    const answer: Omit<ShareCodeSettingsAnswer, 'status'> = {
      namespace_id: namespaceId,
      name: target?.name ?? group.name,
      organization: target?.organization ?? '',
      description: target?.description ?? null,
      share_code: target?.share_code ?? account.share_code,
      settings: { enable_dicom_wrapping: (await ctx.services.wrap.isEnabled(account.uuid)) ? '1' : '0' },
    };
    return answer;
  });

  /**
   * namespace/engine/fqdn: the host of the storage engine that serves a namespace or a study.
   * This server is its own only engine, so the answer is the host of PUBLIC_URL, given only to
   * members of the namespace (or callers who may view the study).
   */
  const engineFqdn = new URL(ctx.config.publicUrl).host;
  authedRoute(ctx, app, 'namespace/engine/fqdn', engineFqdnRequest, async ({ caller, input }) => {
    if (input.by === 'namespace') {
      requireGroup(caller, input.namespaceId);
      return { engine_fqdn: engineFqdn, namespace_id: input.namespaceId };
    }
    const study = await ctx.services.studyAccess.byStorage(caller, input.namespace, input.studyUid, {
      deleted: 'hidden',
    });
    return { engine_fqdn: engineFqdn, namespace_id: study.namespace_id };
  });
}
