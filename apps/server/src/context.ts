import type { Config } from './config.js';
import type { Db } from './db/dialect.js';
import type { AnyJobHandler } from './jobs/job-runner.js';
import { createKernel } from './kernel/kernel.js';
import { createAccountsModule } from './modules/accounts/index.js';
import type { RateLimits } from './modules/accounts/index.js';
import { createAdminModule } from './modules/admin/index.js';
import { createAtnaModule } from './modules/atna/index.js';
import { createDicomPeerModule } from './modules/dicom-peer/index.js';
import { createGatekeeperModule } from './modules/gatekeeper/index.js';
import { createPacsModule } from './modules/pacs/index.js';
import { createPrivacyModule } from './modules/privacy/index.js';
import { createRoutingModule } from './modules/routing/index.js';
import { createSharingModule } from './modules/sharing/index.js';
import type { LinkRateLimits } from './modules/sharing/index.js';
import { createStudiesModule } from './modules/studies/index.js';

/**
 * The composition root (decision 0059): the kernel, then each workflow module built on it in the
 * order of what it needs of the others; their repositories, services, jobs and DICOM handlers
 * gathered once per process (each module's routes are registered by http/app.ts).
 */
export function createContext(
  config: Config,
  db: Db,
  options: { rateLimits?: RateLimits; linkLimits?: LinkRateLimits; log?: (line: string) => void } = {},
) {
  const kernel = createKernel(config, db, options.log ?? ((line: string) => console.error(line)));
  const { repos, audit } = kernel;
  const k = db.kysely;
  const privacy = createPrivacyModule(kernel);
  // Pushes de-identify by the account's profiles through privacy's one engine (decision 0071).
  const pacs = createPacsModule(kernel, { profiles: privacy.services.deidentifier });
  const admin = createAdminModule(kernel, {
    destinations: pacs.repos.destinations,
    callingAes: pacs.services.callingAes,
  });
  const studies = createStudiesModule(kernel, {
    customFields: admin.services.customFields,
    deidentifier: privacy.services.deidentifier,
  });
  const sharing = createSharingModule(kernel, {
    downloads: studies.services.downloads,
    linkLimits: options.linkLimits,
    deidentified: privacy.services.deidentifiedCopies,
    profiles: privacy.services.deidentifier,
  });
  const gatekeeper = createGatekeeperModule(kernel, {
    groupConfigs: admin.services.groupConfigs,
    groupConfigsRepository: admin.repos.groupConfigs,
    pacs: pacs.pacs,
    callingAes: pacs.services.callingAes,
    destinations: pacs.repos.destinations,
    pushes: pacs.repos.studyPushes,
    destinationSearches: pacs.services.destinationSearches,
    hl7Senders: pacs.repos.hl7Senders,
    shares: sharing.repos.shares,
    fileEditor: studies.fileEditor,
  });
  const accounts = createAccountsModule(kernel, {
    shares: sharing.repos.shares,
    sends: sharing.repos.sends,
    rateLimits: options.rateLimits,
  });
  const routing = createRoutingModule(kernel, {
    shares: sharing.services.shares,
    pushes: pacs.services.pushes,
    sends: sharing.services.sends,
    destinations: pacs.repos.destinations,
    sendsRepository: sharing.repos.sends,
    profiles: privacy.services.deidentifier,
  });
  // Every audit event also to the security team's syslog collector, when one is configured (decision 0068).
  const atna = createAtnaModule(kernel, config.atna);
  const modules = [accounts, pacs, admin, studies, routing, sharing, gatekeeper, privacy, atna];
  const jobs = modules.flatMap((m): readonly AnyJobHandler[] => m.jobs);
  for (const job of jobs) kernel.services.jobRunner.register(job);
  return {
    config,
    db,
    repos: {
      ...kernel.repos,
      ...accounts.repos,
      ...pacs.repos,
      ...admin.repos,
      ...studies.repos,
      ...routing.repos,
      ...sharing.repos,
      ...gatekeeper.repos,
      ...atna.repos,
      ...privacy.repos,
    },
    services: {
      ...kernel.services,
      ...accounts.services,
      ...pacs.services,
      ...admin.services,
      ...studies.services,
      ...routing.services,
      ...sharing.services,
      ...gatekeeper.services,
      ...atna.services,
      ...privacy.services,
      // Registered nodes' C-FIND, C-MOVE and C-GET, answered from the index (decision 0061).
      queries: createDicomPeerModule({
        db: k,
        nodes: repos.dicomNodes,
        accounts: repos.accounts,
        blobs: kernel.blobs,
        audit,
        ourAeTitle: config.dicomAet,
      }).queries,
    },
    /** Switches audit queueing on or off and starts the sender's timer (main.ts, once migrated). */
    startAtna: (log?: (line: string) => void) => atna.start(log),
    /** What the DICOM listener asks of modules (dimse/): where a moved instance belongs. */
    dicomHandlers: { ...pacs.handlers },
  };
}

export type AppContext = ReturnType<typeof createContext>;
