import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Kernel } from '../../kernel/kernel.js';
import { AnonymizationProfilesRepository } from './anonymization-profiles.repository.js';
import { anonymizationRoutes } from './anonymization.routes.js';
import { AnonymizationService } from './anonymization.service.js';
import { DeidentifiedCopies } from './deidentified-copies.js';
import { Deidentifier } from './deidentifier.js';
import { DeidentificationSecrets } from './secrets.js';

/**
 * Privacy (README.md): the de-identification engine, the accounts' profiles (anonymization/*) and
 * their secrets (decision 0067), and the Deidentifier the paths out of the account use.
 */
export function createPrivacyModule(kernel: Kernel) {
  const repos = { anonymizationProfiles: new AnonymizationProfilesRepository(kernel.db.kysely) };
  const secrets = new DeidentificationSecrets(kernel.config.deidentificationKeyFile);
  const deidentifier = new Deidentifier({ profiles: repos.anonymizationProfiles, secrets });
  const deidentifiedCopies = new DeidentifiedCopies({
    deidentifier,
    dicomweb: kernel.repos.dicomweb,
    blobs: kernel.blobs,
    ingest: kernel.services.ingest,
  });
  return {
    repos,
    services: {
      anonymization: new AnonymizationService({ profiles: repos.anonymizationProfiles, audit: kernel.audit }),
      deidentifier,
      deidentifiedCopies,
    },
    jobs: [],
  };
}

/** The module's routes, registered by http/app.ts. */
export function registerPrivacyRoutes(ctx: AppContext, app: FastifyInstance): void {
  anonymizationRoutes(ctx, app);
}
