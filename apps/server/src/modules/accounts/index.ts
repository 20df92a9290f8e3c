/** The accounts module's one door: what the rest of the server may use of it (see README.md). */
export type { RateLimits } from './login-throttle.js';
export { NotificationPreferencesService } from './notification-preferences.service.js';
export { PasswordResetService } from './password-reset.service.js';
export { PasswordResetsRepository } from './password-resets.repository.js';
export { ProfileService } from './profile.service.js';
export { sessionRoutes } from './session.routes.js';
export { SessionService } from './session.service.js';
export { TwoFactorRepository } from './two-factor.repository.js';
export { TwoFactorService } from './two-factor.service.js';
export { twoFactorRoutes } from './two-factor.routes.js';
export { userEventRoutes } from './user-event.routes.js';
export { userRoutes } from './user.routes.js';
export { createAccountsModule, registerAccountsRoutes } from './accounts.module.js';
