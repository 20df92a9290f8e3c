import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Kernel } from '../../kernel/kernel.js';
import type { RateLimits } from './login-throttle.js';
import { NotificationPreferencesService } from './notification-preferences.service.js';
import { PasswordResetService } from './password-reset.service.js';
import { PasswordResetsRepository } from './password-resets.repository.js';
import { ProfileService } from './profile.service.js';
import type { ProfileDeps } from './profile.service.js';
import { sessionRoutes } from './session.routes.js';
import { SessionService } from './session.service.js';
import { TwoFactorRepository } from './two-factor.repository.js';
import { twoFactorRoutes } from './two-factor.routes.js';
import { TwoFactorService } from './two-factor.service.js';
import { userEventRoutes } from './user-event.routes.js';
import { OidcClients } from './oidc-client.js';
import { SamlClients } from './saml-client.js';
import { SsoConfigService } from './sso-config.service.js';
import { SsoDirectoryRepository } from './sso-directory.repository.js';
import { ssoRoutes } from './sso.routes.js';
import { SsoRepository } from './sso.repository.js';
import { SsoSignInService } from './sso-sign-in.service.js';
import { userRoutes } from './user.routes.js';

/** What accounts needs: sharing's tables a profile reads (share codes, sends), and its limits. */
export interface AccountsNeeds {
  shares: ProfileDeps['shares'];
  sends: ProfileDeps['sends'];
  rateLimits?: RateLimits | undefined;
}

/** Accounts (README.md): sign-in and its throttle, two-factor codes, profile, password reset, notification preferences. */
export function createAccountsModule(kernel: Kernel, needs: AccountsNeeds) {
  const { audit, config, mailer } = kernel;
  const { users, sessions, failures, settings, userEvents, accounts, memberships } = kernel.repos;
  const repos = { resets: new PasswordResetsRepository(kernel.db.kysely) };
  const passwordReset = new PasswordResetService({
    users,
    resets: repos.resets,
    sessions,
    failures,
    mailer,
    audit,
    publicUrl: config.publicUrl,
  });
  const twoFactor = new TwoFactorService({
    codes: new TwoFactorRepository(kernel.db.kysely),
    settings,
    memberships,
    failures,
    audit,
    mailer,
    accounts,
    publicUrl: config.publicUrl,
    rateLimits: needs.rateLimits,
  });
  const sso = new SsoRepository(kernel.db.kysely, kernel.db.dialect);
  const directory = new SsoDirectoryRepository(kernel.db.kysely);
  const clients = new OidcClients();
  const saml = new SamlClients(config.publicUrl);
  // The sign-in service opens sessions and the session service asks it about required SSO: the
  // question goes through a function so neither is built before the other.
  const sessionService: SessionService = new SessionService({
    users,
    sessions,
    failures,
    audit,
    idleSeconds: config.sessionIdleSeconds,
    rateLimits: needs.rateLimits,
    twoFactor,
    ssoRequired: (userId) => ssoSignIn.passwordRefusal(userId),
  });
  const ssoSignIn: SsoSignInService = new SsoSignInService({
    sso,
    directory,
    users,
    memberships,
    sessions: sessionService,
    clients,
    saml,
    audit,
    publicUrl: config.publicUrl,
  });
  return {
    repos,
    services: {
      twoFactor,
      sessions: sessionService,
      ssoSignIn,
      ssoConfig: new SsoConfigService({
        sso,
        directory,
        users,
        audit,
        publicUrl: config.publicUrl,
        saml,
        forget: (accountId) => clients.forget(accountId),
      }),
      passwordReset,
      profile: new ProfileService({
        users,
        sessions,
        settings,
        shares: needs.shares,
        sends: needs.sends,
        failures,
        passwords: passwordReset,
        audit,
        rateLimits: needs.rateLimits,
      }),
      notificationPreferences: new NotificationPreferencesService({
        userEvents,
        accounts,
        memberships,
        users,
        access: kernel.services.access,
        audit,
      }),
    },
    jobs: [],
  };
}

/** The module's routes, registered by http/app.ts. */
export function registerAccountsRoutes(ctx: AppContext, app: FastifyInstance): void {
  sessionRoutes(ctx, app);
  twoFactorRoutes(ctx, app);
  ssoRoutes(ctx, app);
  userRoutes(ctx, app);
  userEventRoutes(ctx, app);
}
