import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppContext } from '../context.js';
import type { Params } from '../http/params.js';
import { collectParams } from '../http/params.js';
import { auditEvent } from '../audit/audit.service.js';
import { buildStudyQuery } from '../domain/study-query.js';
import { searchableStudyUid, viewableNamespaces } from '../policies/index.js';
import { dicomwebBase, dicomwebCaller } from './access.js';
import { findInstances } from './study-instances.js';
import type { DicomJson } from './dicom-json.js';
import { instanceAttributes, seriesAttributes, studyAttributes } from './dicom-json.js';
import { qidoPaging, qidoStudyFilters } from './qido-params.js';

const DICOM_JSON = 'application/dicom+json';

function send(reply: FastifyReply, items: DicomJson[]) {
  // PS3.18: an empty match answers 204 No Content... many clients expect 200 []; both are allowed.
  return reply.type(DICOM_JSON).send(items);
}

const numberOrUndefined = (value: string | undefined) =>
  value && /^\d+$/.test(value) ? Number(value) : undefined;

/** QIDO-RS: search for studies, series and instances (PS3.18 section 10.6). */
export function qidoRoutes(ctx: AppContext, app: FastifyInstance): void {
  app.get('/dicomweb/studies', async (request, reply) => {
    const caller = await dicomwebCaller(ctx, request);
    const query = collectParams(request);
    const paging = qidoPaging(query);
    const filters = qidoStudyFilters(query);
    // A viewer token finds its own study and nothing else.
    const studyUid = searchableStudyUid(caller, filters['filter.study_uid.equals']);
    if (studyUid === null) return send(reply, []);
    if (studyUid !== undefined) filters['filter.study_uid.equals'] = studyUid;
    const q = buildStudyQuery(
      {
        filters,
        sortBy: undefined,
        timeZone: filters['filter.timezone'],
        rows: paging.limit,
        page: 1,
        withCount: false,
      },
      caller.user.time_zone ?? 'UTC',
    );
    q.offset = paging.offset;
    const { rows } = await ctx.repos.studies.search(q, viewableNamespaces(caller));
    await ctx.services.audit.record(
      auditEvent(
        { userId: caller.user.uuid, ip: request.ip },
        null,
        'STUDY_SEARCH',
        { type: 'study' },
        {
          detail: { via: 'qido-rs', query: withoutSid(query), returned: rows.length },
        },
      ),
    );
    const base = dicomwebBase(request);
    return send(
      reply,
      rows.map((row) => studyAttributes(row, base)),
    );
  });

  app.get<{ Params: { study: string } }>('/dicomweb/studies/:study/series', async (request, reply) => {
    const caller = await dicomwebCaller(ctx, request);
    const query = collectParams(request);
    const paging = qidoPaging(query);
    const study = await ctx.services.studyAccess.byUid(caller, request.params.study);
    const series = await ctx.repos.dicomweb.seriesOfStudy(study.uuid, {
      seriesUid: query['SeriesInstanceUID'] ?? query['0020000E'],
      modality: query['Modality'] ?? query['00080060'],
      seriesNumber: numberOrUndefined(query['SeriesNumber'] ?? query['00200011']),
    });
    await ctx.services.audit.recordStudyRead(caller, study, 'qido-rs series');
    const base = dicomwebBase(request);
    return send(
      reply,
      series.slice(paging.offset, paging.offset + paging.limit).map((s) => seriesAttributes(study, s, base)),
    );
  });

  const instancesHandler = async (
    params: { study: string; series?: string },
    request: FastifyRequest,
    reply: FastifyReply,
  ) => {
    const caller = await dicomwebCaller(ctx, request);
    const query = collectParams(request);
    const paging = qidoPaging(query);
    const { study, instances } = await findInstances(ctx, caller, params, {
      sopInstanceUid: query['SOPInstanceUID'] ?? query['00080018'],
      sopClassUid: query['SOPClassUID'] ?? query['00080016'],
      instanceNumber: numberOrUndefined(query['InstanceNumber'] ?? query['00200013']),
    });
    // A series the study does not hold matches nothing (QIDO-RS answers an empty list).
    if (!instances) return send(reply, []);
    await ctx.services.audit.recordStudyRead(caller, study, 'qido-rs instances');
    const base = dicomwebBase(request);
    return send(
      reply,
      instances
        .slice(paging.offset, paging.offset + paging.limit)
        .map((i) => instanceAttributes(study, i, base)),
    );
  };

  app.get<{ Params: { study: string } }>('/dicomweb/studies/:study/instances', (request, reply) =>
    instancesHandler(request.params, request, reply),
  );
  app.get<{ Params: { study: string; series: string } }>(
    '/dicomweb/studies/:study/series/:series/instances',
    (request, reply) => instancesHandler(request.params, request, reply),
  );
}

/** The query as audited: credentials never reach the audit log. */
function withoutSid(query: Params): Params {
  return Object.fromEntries(Object.entries(query).filter(([k]) => k !== 'sid' && k !== 'token'));
}
