import { engineFqdnRequest, namespaceSettingsRequest, shareCodeRequest } from '@imaging-inbox/contract';
import type { NamespaceSettingsAnswer, ShareCodeSettingsAnswer } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute, authenticate, guardedRoute, sidOf } from '../../http/api.js';
import { DomainError, notFound } from '../../domain/errors.js';
import {
  mayAdminister,
  requireAdministration,
  requireGroup,
  requireKnownNamespace,
} from '../../policies/index.js';

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
      settings: {
        enable_dicom_wrapping: (await ctx.services.wrap.isEnabled(account.uuid, namespaceId)) ? '1' : '0',
      },
    };
    return answer;
  });

  /**
   * namespace/engine/fqdn: the host of the storage engine that serves a namespace or a study. This
   * server is its own only engine, so the answer is the host of PUBLIC_URL. Ambra's SDK asks it
   * without a session: then the host is answered as it is for any name (the host is public; nothing
   * is looked up, so the answer tells nothing of the namespace or study). With a session the
   * namespace must be the caller's (or the study one they may view), as before.
   */
  const engineFqdn = new URL(ctx.config.publicUrl).host;
  guardedRoute(
    app,
    'namespace/engine/fqdn',
    (request, params) =>
      sidOf(request, params) ? authenticate(ctx, request, params) : Promise.resolve(undefined),
    engineFqdnRequest,
    async ({ guard: caller, input }) => {
      if (!caller) {
        const named =
          input.by === 'namespace' ? input.namespaceId : input.by === 'study' ? input.namespace : null;
        return { engine_fqdn: engineFqdn, namespace_id: named };
      }
      if (input.by === 'namespace') {
        requireGroup(caller, input.namespaceId);
        return { engine_fqdn: engineFqdn, namespace_id: input.namespaceId };
      }
      const study =
        input.by === 'uuid'
          ? await ctx.services.studyAccess.byUuid(caller, input.studyId, { deleted: 'hidden' })
          : await ctx.services.studyAccess.byStorage(caller, input.namespace, input.studyUid, {
              deleted: 'hidden',
            });
      return { engine_fqdn: engineFqdn, namespace_id: study.namespace_id };
    },
  );

  /**
   * namespace/settings (Ambra's call): a member, or whoever may see the account's groups, reads the
   * namespace's settings as they apply; whoever may edit the account's groups (group_edit) sets them, each kept on the namespace
   * over its account's value and audited. Ambra settings this product does not keep per namespace
   * are refused by name (INVALID_SETTING), not dropped.
   */
  authedRoute(ctx, app, 'namespace/settings', namespaceSettingsRequest, async ({ caller, input }) => {
    const ns = await ctx.repos.accounts.namespace(input.namespaceId);
    if (!ns) throw notFound('namespace');
    if (!mayAdminister(caller, ns.account_id, 'group', 'view'))
      requireKnownNamespace(caller, ns, 'group_edit');
    const [unsupported] = input.unsupported;
    if (unsupported) throw new DomainError('INVALID_SETTING', unsupported);
    const changes = Object.entries(input.changes);
    if (changes.length > 0) {
      requireAdministration(caller, ns.account_id, 'group', 'edit');
      for (const [name, value] of changes) {
        if (value !== '0' && value !== '1') throw new DomainError('INVALID_SETTING_VALUE', name);
      }
      const owner = `namespace:${input.namespaceId}`;
      const before: Record<string, string | null> = {};
      for (const [name, value] of changes) {
        before[name] = (await ctx.repos.settings.get(owner, name)) ?? null;
        await ctx.repos.settings.set(owner, name, value);
      }
      await ctx.services.audit.recordAdministration(
        caller,
        ns.account_id,
        'NAMESPACE_SETTINGS',
        'NAMESPACE',
        input.namespaceId,
        { before, after: input.changes },
      );
    }
    const wrapping = await ctx.services.wrap.isEnabled(ns.account_id, input.namespaceId);
    const answer: Omit<NamespaceSettingsAnswer, 'status'> = {
      uuid: input.namespaceId,
      settings: { enable_dicom_wrapping: wrapping ? '1' : '0' },
    };
    return answer;
  });
}
