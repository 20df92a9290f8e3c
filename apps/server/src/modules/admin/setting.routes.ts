import { noParams, settingGetRequest, settingSetRequest } from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';
import { invalidField } from '../../domain/errors.js';

const KEY_RE = /^[A-Za-z0-9_.:-]{1,100}$/;
const MAX_VALUE_LENGTH = 64 * 1024;

/** The signed-in user's own key/value settings (saved searches, date format, last search …). */
export function settingRoutes(ctx: AppContext, app: FastifyInstance): void {
  const owner = (userId: string) => `user:${userId}`;

  authedRoute(ctx, app, 'setting/get/all', noParams, async ({ caller }) => ({
    settings: await ctx.repos.settings.all(owner(caller.user.uuid)),
  }));

  authedRoute(ctx, app, 'setting/get', settingGetRequest, async ({ caller, input }) => {
    const { key } = input;
    return { key, value: (await ctx.repos.settings.get(owner(caller.user.uuid), key)) ?? null };
  });

  authedRoute(ctx, app, 'setting/set', settingSetRequest, async ({ caller, input }) => {
    const { key, value } = input;
    if (!KEY_RE.test(key)) throw invalidField('key', 'letters, digits and _ . : - only, at most 100');
    if (value === undefined) throw invalidField('value', 'is required');
    if (value.length > MAX_VALUE_LENGTH) throw invalidField('value', 'too long');
    await ctx.repos.settings.set(owner(caller.user.uuid), key, value);
  });
}
