import {
  studyApproveRequest,
  studyNominateRequest,
  studyNominationRequest,
  studyPatientSearchRequest,
  studyProcessRequest,
  studyRejectRequest,
  studyUuidRequest,
} from '@imaging-inbox/contract';
import type { FastifyInstance } from 'fastify';
import type { AppContext } from '../../context.js';
import { authedRoute } from '../../http/api.js';

/** The gatekeeper workflow: nominate a study, cancel, read its status; the gatekeeper rejects or processes (sends to PACS). */
export function nominationRoutes(ctx: AppContext, app: FastifyInstance): void {
  const nominations = ctx.services.nominations;

  authedRoute(ctx, app, 'study/nominate', studyNominateRequest, async ({ caller, input }) => ({
    nomination: await nominations.nominate(caller, input),
  }));

  authedRoute(ctx, app, 'study/nominate/cancel', studyUuidRequest, async ({ caller, input }) => {
    await nominations.cancel(caller, input.uuid);
  });

  authedRoute(ctx, app, 'study/nomination', studyNominationRequest, async ({ caller, input }) =>
    nominations.status(caller, input.uuid),
  );

  authedRoute(ctx, app, 'study/reject', studyRejectRequest, async ({ caller, input }) => ({
    nomination: await nominations.reject(caller, input.uuid, input.reason, input.message),
  }));

  authedRoute(ctx, app, 'study/process', studyProcessRequest, async ({ caller, input }) =>
    ctx.services.nominationProcess.process(caller, input),
  );

  authedRoute(ctx, app, 'study/approve', studyApproveRequest, async ({ caller, input }) =>
    ctx.services.nominationProcess.approve(caller, input),
  );

  // Search Patient (C-Find flow): answers the search's uuid, polled with destination/search/get.
  authedRoute(ctx, app, 'study/patient/search', studyPatientSearchRequest, async ({ caller, input }) =>
    ctx.services.patientSearches.search(caller, input),
  );
}
