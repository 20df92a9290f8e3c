import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../api.js';
import type { AuthedCall } from '../api.js';
import { invalidField } from '../../domain/errors.js';
import { flag, required } from '../params.js';

/** tag/add, tag/delete (object=study only) and study/star. */
export function studyMarksRoutes(ctx: AppContext, app: FastifyInstance): void {
  const marks = ctx.services.marks;
  const studies = ctx.services.studies;

  const tagCall =
    (add: boolean) =>
    async ({ caller, params }: AuthedCall) => {
      const [object, objectId] = required(params, 'object', 'object_id', 'tag');
      if (object !== 'study') throw invalidField('object', 'must be study');
      await marks.tag(caller, await studies.requireVisible(caller, objectId), params['tag']!, add);
    };
  authedRoute(ctx, app, 'tag/add', tagCall(true));
  authedRoute(ctx, app, 'tag/delete', tagCall(false));

  authedRoute(ctx, app, 'study/star', async ({ caller, params }) => {
    const [uuid, raw] = required(params, 'uuid', 'star');
    const star = starFlag(raw);
    await marks.star(caller, await studies.requireVisible(caller, uuid), star);
  });
}

function starFlag(raw: string): 0 | 1 {
  try {
    const value = flag(raw);
    if (value !== undefined) return value;
  } catch {
    // reported below under the parameter's own name
  }
  throw invalidField('star', 'must be 0 or 1');
}
