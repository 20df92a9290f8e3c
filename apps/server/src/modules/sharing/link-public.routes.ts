import type { LinkInfoAnswer, LinkUnlockAnswer } from '@imaging-inbox/contract';
import { linkTokenRequest, linkUnlockRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { WRAPPING_SETTING } from '../studies/index.js';
import { apiRoute } from '../../http/api.js';
import { DomainError, notPermitted } from '../../domain/errors.js';
import { grantMayUploadTo } from './links.js';
import { collectParams } from '../../http/params.js';
import { hashToken } from '../../security/tokens.js';
import { LINK_SOURCE_KIND, linkIndexTarget } from '../../ingest/link-source.js';
import type { Params } from '../../http/params.js';
import type { FastifyRequest } from 'fastify';
import { receiveBody, uploadAnswer } from '../studies/index.js';
import { typeUntypedUpload } from '../../http/sniff-upload-type.js';
import { registerUploadSessionRoutes } from '../studies/index.js';
import { receiveAndWrap, wrapFileLimit } from '../studies/index.js';

/** The grant from the X-Link-Grant header (or a grant parameter). */
function grantOf(request: FastifyRequest, params: Params): string {
  const header = request.headers['x-link-grant'];
  const grant = (typeof header === 'string' ? header : params['grant'])?.trim();
  if (!grant) throw new DomainError('NO_LINK_ERROR');
  return grant;
}

/**
 * The outside party's calls, reached without a session (docs/api-v3.md "Request-study links"):
 * `link/public/info` and `link/public/unlock` take the link token; the upload takes the grant that
 * unlock answered, so the token itself is sent as few times as possible.
 */
export function linkPublicRoutes(ctx: AppContext, app: FastifyInstance, maxUploadBytes: number): void {
  apiRoute(
    app,
    'link/public/info',
    linkTokenRequest,
    async ({ input, request }): Promise<Omit<LinkInfoAnswer, 'status'>> => {
      const link = await ctx.services.linkAccess.info(input.token, request.ip);
      return {
        namespace_name: link.namespace_name,
        requester_name: link.requester_name,
        description: link.message,
        needs_password: link.password_hash !== null,
        expires: link.expires,
        accepts_documents:
          !link.anonymization_id && (await ctx.services.wrap.isEnabled(link.account_id, link.namespace_id)),
      };
    },
  );

  apiRoute(
    app,
    'link/public/unlock',
    linkUnlockRequest,
    async ({ input, request }): Promise<Omit<LinkUnlockAnswer, 'status'>> => {
      return ctx.services.linkAccess.unlock(input.token, input.password ?? '', request.ip);
    },
  );

  app.post('/api/v3/link/public/upload', { preParsing: typeUntypedUpload }, async (request, reply) => {
    const grant = grantOf(request, collectParams(request));
    // Check the grant before reading the body: no bytes are written for a dead link.
    const link = await ctx.services.linkAccess.authorizeUpload(grant);
    const temp = await receiveBody(ctx, request, maxUploadBytes);
    const target = linkIndexTarget({ accountId: link.account_id, namespaceId: link.namespace_id });
    const source = { kind: LINK_SOURCE_KIND, userId: null, ip: request.ip };
    // A de-identifying link stores only the de-identified copy (decision 0071).
    const rewrite = ctx.services.linkRewrite(link);
    const result = rewrite
      ? await ctx.services.ingest.ingestRewritten(temp, target, source, rewrite)
      : await ctx.services.ingest.ingestTemp(temp, target, source);
    const answer = uploadAnswer(result);
    await giveShareDescription(ctx, link, answer.study_uuid);
    return reply.code(202).send(answer);
  });

  // Documents (PDF, JPEG, PNG, MP4) with the patient and exam form, wrapped by the wizard's own
  // service into one new study of the link's group. The grant's hit was counted when it was opened,
  // as for the DICOM upload above; the link, its expiry and the group's setting are checked first.
  const maxFileBytes = wrapFileLimit(maxUploadBytes);
  app.post('/api/v3/link/public/wrap', async (request, reply) => {
    const grant = grantOf(request, collectParams(request));
    const link = await ctx.services.linkAccess.authorizeUpload(grant);
    // Documents wrapped with the form's patient details cannot be de-identified: not on such a link.
    if (link.anonymization_id || !(await ctx.services.wrap.isEnabled(link.account_id, link.namespace_id)))
      throw notPermitted(WRAPPING_SETTING);
    const answer = await receiveAndWrap(ctx, request, maxFileBytes, {
      group: { accountId: link.account_id, namespaceId: link.namespace_id },
      userId: null,
      link: { uuid: link.uuid },
    });
    await giveShareDescription(ctx, link, answer.study_uuid);
    return reply.code(202).send(answer);
  });

  // Resumable uploads: sessions belong to the grant (one page visit); a dead link reaches none.
  registerUploadSessionRoutes(ctx, app, 'link/public/upload/session', async (request, params) => {
    const grant = grantOf(request, params);
    const link = await ctx.services.linkAccess.authorizeUpload(grant);
    return {
      owner: {
        key: `grant:${hashToken(grant)}`,
        mayUploadTo: (namespaceId) => grantMayUploadTo(link, namespaceId),
      },
      targetOf: () => ({
        target: { accountId: link.account_id, namespaceId: link.namespace_id },
        source: { kind: LINK_SOURCE_KIND, userId: null },
      }),
      afterStored: (studyUuid) => giveShareDescription(ctx, link, studyUuid),
      rewrite: ctx.services.linkRewrite(link),
    };
  });
}

/** What a request link uploads carries the link's share description as its share message. */
async function giveShareDescription(
  ctx: AppContext,
  link: { share_description: string | null },
  studyUuid: string,
): Promise<void> {
  if (link.share_description && studyUuid) {
    await ctx.repos.studies.setShareMessageIfNone(studyUuid, link.share_description);
  }
}
