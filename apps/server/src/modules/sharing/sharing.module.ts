import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Kernel } from '../../kernel/kernel.js';
import { LinkAccessService } from './link-access.service.js';
import { linkPublicRoutes } from './link-public.routes.js';
import { linkRoutes } from './link.routes.js';
import { LinkService } from './link.service.js';
import { LinksRepository } from './links.repository.js';
import type { LinkRateLimits } from './public-link-guard.js';
import { SendAccessService } from './send-access.service.js';
import { studySendJob } from './send-job.js';
import { sendPublicRoutes } from './send-public.routes.js';
import { SendService } from './send.service.js';
import { SendsRepository } from './sends.repository.js';
import { ShareNotifier } from './share-notifier.js';
import { ShareService } from './share.service.js';
import type { DeidentifyingGroups } from './share.service.js';
import { linkRewrite, type LinkProfiles } from './link-deidentification.js';
import { SharesRepository } from './shares.repository.js';
import { studySendRoutes } from './study-send.routes.js';
import { studyShareRoutes } from './study-share.routes.js';

/** What sharing needs: the studies module's downloads (a send's recipient downloads), and its limits. */
export interface SharingNeeds {
  downloads: ConstructorParameters<typeof SendAccessService>[0]['downloads'];
  linkLimits?: LinkRateLimits | undefined;
  /** De-identifying groups (privacy's DeidentifiedCopies, decision 0067). */
  deidentified?: DeidentifyingGroups | undefined;
  /** The accounts' de-identification profiles request links apply (privacy's Deidentifier, decision 0071). */
  profiles?: LinkProfiles | undefined;
}

/** Sharing (README.md): shares, sends and their public pages, request links and their public upload. */
export function createSharingModule(kernel: Kernel, needs: SharingNeeds) {
  const { audit, collector, config, mailer, events } = kernel;
  const { studies, users, accounts, memberships, failures, userEvents } = kernel.repos;
  const k = kernel.db.kysely;
  const repos = {
    shares: new SharesRepository(k),
    links: new LinksRepository(k),
    sends: new SendsRepository(k),
  };
  const shareNotifier = new ShareNotifier({
    accounts,
    memberships,
    userEvents,
    mailer,
    publicUrl: config.publicUrl,
  });
  const sends = new SendService({
    sends: repos.sends,
    studies,
    users,
    jobs: kernel.jobs,
    mailer,
    audit,
    publicUrl: config.publicUrl,
    onDelivered: (copyUuid) => events.shared(copyUuid),
  });
  return {
    repos,
    services: {
      shares: new ShareService({
        shares: repos.shares,
        audit,
        collector,
        mailsFor: (event) => shareNotifier.prepare(event),
        onShared: (copyUuid) => events.shared(copyUuid),
        ...(needs.deidentified ? { deidentified: needs.deidentified } : {}),
      }),
      links: new LinkService({
        links: repos.links,
        mailer,
        audit,
        publicUrl: config.publicUrl,
        profiles: needs.profiles,
      }),
      /** What a de-identifying link's uploads are stored as (decision 0071). */
      linkRewrite: (link: { account_id: string; anonymization_id: string | null }) =>
        linkRewrite(needs.profiles, link),
      linkAccess: new LinkAccessService({
        links: repos.links,
        failures,
        mailer,
        audit,
        limits: needs.linkLimits,
      }),
      sends,
      sendAccess: new SendAccessService({
        sends: repos.sends,
        studies,
        users,
        accounts,
        failures,
        downloads: needs.downloads,
        mailer,
        audit,
        limits: needs.linkLimits,
      }),
    },
    jobs: [studySendJob(sends)],
  };
}

/** The module's routes, registered by http/app.ts. */
export function registerSharingRoutes(
  ctx: AppContext,
  app: FastifyInstance,
  http: { maxUploadBytes: number },
): void {
  studyShareRoutes(ctx, app);
  linkRoutes(ctx, app);
  linkPublicRoutes(ctx, app, http.maxUploadBytes);
  studySendRoutes(ctx, app);
  sendPublicRoutes(ctx, app);
}
