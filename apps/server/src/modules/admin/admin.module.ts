import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import type { Kernel } from '../../kernel/kernel.js';
import { AccountSettingsService } from './account-settings.service.js';
import { accountUserRoutes } from './account-user.routes.js';
import { AccountUserService } from './account-user.service.js';
import { AccountUsersRepository } from './account-users.repository.js';
import { accountRoutes } from './account.routes.js';
import { AuditLogService } from './audit-log.service.js';
import { auditRoutes } from './audit.routes.js';
import { CustomFieldService } from './custom-field.service.js';
import { CustomFieldsRepository } from './custom-fields.repository.js';
import { customFieldRoutes } from './customfield.routes.js';
import { GroupAdminRepository } from './group-admin.repository.js';
import { groupAdminRoutes } from './group-admin.routes.js';
import { GroupAdminService } from './group-admin.service.js';
import type { ConfigDestinations } from './group-config.service.js';
import { GroupConfigService } from './group-config.service.js';
import { GroupConfigsRepository } from './group-configs.repository.js';
import { LabelOverridesRepository } from './label-overrides.repository.js';
import { labelRoutes } from './label.routes.js';
import { LabelService } from './label.service.js';
import { namespaceRoutes } from './namespace.routes.js';
import { roleRoutes } from './role.routes.js';
import { RoleService } from './role.service.js';
import { RolesRepository } from './roles.repository.js';
import { settingRoutes } from './setting.routes.js';

/**
 * What administration needs of the pacs module, in its own services' terms (a module file imports no
 * other module): the account's destinations and its calling AE titles.
 */
export interface AdminNeeds {
  destinations: ConfigDestinations;
  callingAes: ConstructorParameters<typeof AccountSettingsService>[0]['callingAes'];
}

/**
 * Administration (README.md): the account and its settings, account users, groups and their
 * gatekeeper configuration, roles, custom fields, labels, namespaces and the audit log browser.
 */
export function createAdminModule(kernel: Kernel, needs: AdminNeeds) {
  const { audit, config, mailer } = kernel;
  const k = kernel.db.kysely;
  const repos = {
    groupConfigs: new GroupConfigsRepository(k),
    customFields: new CustomFieldsRepository(k),
    roles: new RolesRepository(k),
    labels: new LabelOverridesRepository(k),
  };
  const accountUsers = new AccountUsersRepository(k, kernel.db.dialect);
  return {
    repos,
    services: {
      groupConfigs: new GroupConfigService({
        configs: repos.groupConfigs,
        destinations: needs.destinations,
        audit,
      }),
      customFields: new CustomFieldService({ fields: repos.customFields, audit }),
      roles: new RoleService({ roles: repos.roles, audit }),
      groupAdmin: new GroupAdminService({
        groups: new GroupAdminRepository(k),
        accounts: kernel.repos.accounts,
        roles: repos.roles,
        accountUsers,
        audit,
      }),
      accountUsers: new AccountUserService({
        users: accountUsers,
        directory: kernel.repos.users,
        accounts: kernel.repos.accounts,
        roles: repos.roles,
        mailer,
        audit,
        publicUrl: config.publicUrl,
      }),
      auditLog: new AuditLogService(kernel.repos.audit),
      labels: new LabelService({ labels: repos.labels, audit }),
      accountSettings: new AccountSettingsService({
        settings: kernel.repos.settings,
        audit,
        callingAes: needs.callingAes,
      }),
    },
    jobs: [],
  };
}

/** The module's routes, registered by http/app.ts. */
export function registerAdminRoutes(ctx: AppContext, app: FastifyInstance): void {
  settingRoutes(ctx, app);
  accountRoutes(ctx, app);
  accountUserRoutes(ctx, app);
  roleRoutes(ctx, app);
  groupAdminRoutes(ctx, app);
  customFieldRoutes(ctx, app);
  auditRoutes(ctx, app);
  labelRoutes(ctx, app);
  namespaceRoutes(ctx, app);
}
