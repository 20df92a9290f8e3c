/** The sharing module's one door: what the rest of the server may use of it (see README.md). */
export { LinkAccessService } from './link-access.service.js';
export { linkPublicRoutes } from './link-public.routes.js';
export { linkRoutes } from './link.routes.js';
export { LinkService } from './link.service.js';
export { LinksRepository } from './links.repository.js';
export type { LinkRateLimits } from './public-link-guard.js';
export { SendAccessService } from './send-access.service.js';
export { sendPublicRoutes } from './send-public.routes.js';
export { SendService } from './send.service.js';
export { SendsRepository } from './sends.repository.js';
export { mayChangeShareCode, requireShareCodeChange } from './share-codes.js';
export { ShareNotifier } from './share-notifier.js';
export { ShareService } from './share.service.js';
export { SharesRepository } from './shares.repository.js';
export { studySendRoutes } from './study-send.routes.js';
export { studyShareRoutes } from './study-share.routes.js';
export { createSharingModule, registerSharingRoutes } from './sharing.module.js';
