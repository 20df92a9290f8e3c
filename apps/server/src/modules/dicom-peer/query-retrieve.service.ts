import { Readable } from 'node:stream';
import { auditEvent, studyEvent, type AuditService } from '../../audit/audit.service.js';
import type { DicomAttributes, QueryKeys, StoreSource } from '../../dimse/client/types.js';
import { QueryRefused } from '../../dimse/query-retrieve.js';
import type {
  MoveDestination,
  QueryCaller,
  QueryRequest,
  QueryRetrieveHandler,
  QueryRights,
} from '../../dimse/query-retrieve.js';
import type { AccountsRepository } from '../../repositories/accounts.repository.js';
import type { DicomNodesRepository } from '../../repositories/dicom-nodes.repository.js';
import type { BlobStore } from '../../storage/blob-store.js';
import type { Attribute } from './query-attributes.js';
import {
  INSTANCE_ATTRIBUTES,
  PATIENT_ATTRIBUTES,
  SERIES_ATTRIBUTES,
  STUDY_ATTRIBUTES,
} from './query-attributes.js';
import type { QueryIndexRepository } from './query-index.repository.js';
import { nodeMayRetrieve, nodeQueryNamespaces } from './node-scope.js';
import { dateRange, exactValue, matcherFor, uidList } from './query-matching.js';
import type { Matcher } from './query-matching.js';

/** Rows read per index page: a C-FIND holds at most this many in memory. */
const PAGE = 200;
/** The most instances one C-MOVE or C-GET sends. */
export const MAX_RETRIEVE_INSTANCES = 20_000;
/** The most study uuids one C-FIND's audit event lists (the count is always there). */
const AUDITED_STUDIES = 200;

const REFUSED = {
  identifierDoesNotMatch: 0xa900,
  notAuthorized: 0x0124,
  tooMany: 0xa702,
} as const;

interface Deps {
  nodes: DicomNodesRepository;
  accounts: AccountsRepository;
  index: QueryIndexRepository;
  blobs: BlobStore;
  audit: AuditService;
  /** Our AE title: Retrieve AE Title (0008,0054) of every match. */
  ourAeTitle: string;
}

/**
 * Answers a registered node's C-FIND, C-MOVE and C-GET from the index, within the groups its
 * registration names (node-scope.ts, the module's policy), each audited as the node. A study shared into
 * several of those groups is one match (the index pages are keyed by UID, see the repository).
 */
export class QueryRetrieveService implements QueryRetrieveHandler {
  constructor(private readonly deps: Deps) {}

  async rights(caller: QueryCaller): Promise<QueryRights> {
    const { namespaces, retrieve } = await this.scope(caller);
    return { find: namespaces.length > 0, retrieve };
  }

  async *find(caller: QueryCaller, request: QueryRequest): AsyncGenerator<QueryKeys> {
    const { namespaces } = await this.scope(caller);
    const studies: string[] = [];
    let matches = 0;
    try {
      if (namespaces.length === 0) return;
      for await (const { keys, studyUuid } of this.matches(namespaces, request)) {
        matches++;
        if (studyUuid && studies.length < AUDITED_STUDIES && studies.at(-1) !== studyUuid)
          studies.push(studyUuid);
        yield keys;
      }
    } finally {
      // A peer's query names no user: the node (and the address it called from) is who asked.
      await this.deps.audit.record(
        auditEvent(
          { userId: null, ip: caller.ip },
          caller.accountId,
          'DICOM_FIND',
          { type: 'dicom_node', id: caller.nodeId },
          {
            detail: {
              calling_ae: caller.aeTitle,
              association: caller.association,
              model: request.model,
              level: request.level,
              keys: askedValues(request.identifier),
              matches,
              studies,
            },
          },
        ),
      );
    }
  }

  private async *matches(
    namespaces: string[],
    request: QueryRequest,
  ): AsyncGenerator<{ keys: QueryKeys; studyUuid?: string }> {
    const { level, model, identifier } = request;
    const key = (name: string) => textKey(identifier, name);
    if (level === 'PATIENT') {
      if (model !== 'patient-root') throw refusedLevel(level, model);
      const test = matching(identifier, PATIENT_ATTRIBUTES);
      const patientId = exactValue('text', key('PatientID'));
      let after = '';
      for (;;) {
        const page = await this.deps.index.patientsPage(namespaces, patientId, after, PAGE);
        for (const row of page)
          if (test(row))
            yield { keys: answer(identifier, level, PATIENT_ATTRIBUTES, row, this.deps.ourAeTitle) };
        if (page.length < PAGE) return;
        after = page.at(-1)!.patientid;
      }
    }
    if (level === 'STUDY') {
      const test = matching(identifier, STUDY_ATTRIBUTES);
      const range = dateRange(key('StudyDate'));
      const filter = {
        studyUids: uidList(key('StudyInstanceUID')),
        patientId: exactValue('text', key('PatientID')),
        accessionNumber: exactValue('text', key('AccessionNumber')),
        dateLow: range?.low,
        dateHigh: range?.high,
      };
      let after = '';
      for (;;) {
        const page = await this.deps.index.studiesPage(namespaces, filter, after, PAGE);
        for (const row of page) {
          if (row.study_uid === after) continue; // the same study in another group
          after = row.study_uid;
          if (test(row))
            yield {
              keys: answer(identifier, level, STUDY_ATTRIBUTES, row, this.deps.ourAeTitle),
              studyUuid: row.uuid,
            };
        }
        if (page.length < PAGE) return;
      }
    }
    if (level === 'SERIES' || level === 'IMAGE') {
      const studyUids = uidList(key('StudyInstanceUID'));
      if (!studyUids) {
        throw new QueryRefused(REFUSED.identifierDoesNotMatch, `${level} level needs StudyInstanceUID`);
      }
      const filter = { studyUids, seriesUids: uidList(key('SeriesInstanceUID')) };
      if (level === 'SERIES') {
        const test = matching(identifier, SERIES_ATTRIBUTES);
        let after = '';
        for (;;) {
          const page = await this.deps.index.seriesPage(namespaces, filter, after, PAGE);
          for (const row of page) {
            if (row.series_uid === after) continue;
            after = row.series_uid;
            if (test(row))
              yield {
                keys: answer(identifier, level, SERIES_ATTRIBUTES, row, this.deps.ourAeTitle),
                studyUuid: row.study_uuid,
              };
          }
          if (page.length < PAGE) return;
        }
      }
      const test = matching(identifier, INSTANCE_ATTRIBUTES);
      const sopFilter = { ...filter, sopUids: uidList(key('SOPInstanceUID')) };
      let after = '';
      for (;;) {
        const page = await this.deps.index.instancesPage(namespaces, sopFilter, after, PAGE);
        for (const row of page) {
          if (row.sop_instance_uid === after) continue;
          after = row.sop_instance_uid;
          if (test(row))
            yield {
              keys: answer(identifier, level, INSTANCE_ATTRIBUTES, row, this.deps.ourAeTitle),
              studyUuid: row.study_uuid,
            };
        }
        if (page.length < PAGE) return;
      }
    }
    throw refusedLevel(level, model);
  }

  /**
   * The instances a C-MOVE or C-GET names by its unique keys (PatientID, Study/Series/SOP Instance
   * UIDs, lists allowed), each once, readable from storage; one audit event per study, as the node.
   */
  async retrieve(
    caller: QueryCaller,
    request: QueryRequest,
    service: 'move' | 'get',
  ): Promise<StoreSource[]> {
    const { namespaces, retrieve } = await this.scope(caller);
    if (!retrieve) throw new QueryRefused(REFUSED.notAuthorized, 'this node may not retrieve');
    const key = (name: string) => textKey(request.identifier, name);
    const seriesUids = uidList(key('SeriesInstanceUID'));
    const sopUids = uidList(key('SOPInstanceUID'));
    let studyUids = uidList(key('StudyInstanceUID'));
    const level = request.level;
    if (level === 'PATIENT') {
      const patientIds = uidList(key('PatientID'));
      if (!patientIds)
        throw new QueryRefused(REFUSED.identifierDoesNotMatch, 'PATIENT level needs PatientID');
      studyUids = await this.deps.index.studyUidsOfPatients(namespaces, patientIds);
    } else if (level === 'STUDY') {
      if (!studyUids)
        throw new QueryRefused(REFUSED.identifierDoesNotMatch, 'STUDY level needs StudyInstanceUID');
    } else if (level === 'SERIES' || level === 'IMAGE') {
      const own = level === 'SERIES' ? seriesUids : sopUids;
      if (!own) {
        throw new QueryRefused(
          REFUSED.identifierDoesNotMatch,
          `${level} level needs ${level === 'SERIES' ? 'SeriesInstanceUID' : 'SOPInstanceUID'}`,
        );
      }
      studyUids ??= await this.deps.index.studyUidsOf(namespaces, { seriesUids, sopUids });
    } else {
      throw refusedLevel(level, request.model);
    }
    const filter = {
      studyUids,
      seriesUids: level === 'SERIES' || level === 'IMAGE' ? seriesUids : undefined,
      sopUids: level === 'IMAGE' ? sopUids : undefined,
    };
    const sources: StoreSource[] = [];
    const studies = new Map<string, string>();
    if (studyUids.length > 0) {
      let after = '';
      for (;;) {
        const page = await this.deps.index.instancesPage(namespaces, filter, after, PAGE);
        for (const row of page) {
          if (row.sop_instance_uid === after) continue;
          after = row.sop_instance_uid;
          if (sources.length === MAX_RETRIEVE_INSTANCES) {
            throw new QueryRefused(REFUSED.tooMany, `more than ${MAX_RETRIEVE_INSTANCES} instances`);
          }
          if (!studies.has(row.study_uid)) studies.set(row.study_uid, row.study_uuid);
          const blobKey = row.blob_key;
          sources.push({
            sopClassUid: row.sop_class_uid,
            sopInstanceUid: row.sop_instance_uid,
            transferSyntax: row.transfer_syntax,
            open: () => Readable.from(this.deps.blobs.readStream(blobKey)),
          });
        }
        if (page.length < PAGE) break;
      }
    }
    for (const [studyUid, studyUuid] of studies) {
      await this.deps.audit.record(
        studyEvent(
          { userId: null, ip: caller.ip },
          { uuid: studyUuid, account_id: caller.accountId },
          service === 'move' ? 'DICOM_MOVE' : 'DICOM_GET',
          {
            node: caller.nodeId,
            calling_ae: caller.aeTitle,
            association: caller.association,
            study_uid: studyUid,
            level,
          },
        ),
      );
    }
    return sources;
  }

  async moveDestination(caller: QueryCaller, aeTitle: string): Promise<MoveDestination | undefined> {
    const node = await this.deps.nodes.findAnyByAeKey(aeTitle);
    if (!node || node.account_id !== caller.accountId || node.port === null || node.host === '*')
      return undefined;
    return { aeTitle: node.ae_title, host: node.host, port: node.port };
  }

  /** The namespaces the node may query now, and whether it may retrieve (read again per operation). */
  private async scope(caller: QueryCaller): Promise<{ namespaces: string[]; retrieve: boolean }> {
    const node = await this.deps.nodes.find(caller.nodeId);
    if (!node || node.account_id !== caller.accountId) return { namespaces: [], retrieve: false };
    const namespaces = nodeQueryNamespaces(node, await this.deps.accounts.groupsOfAccount(node.account_id));
    return { namespaces, retrieve: nodeMayRetrieve(node, namespaces) };
  }
}

function refusedLevel(level: string, model: string): QueryRefused {
  return new QueryRefused(
    REFUSED.identifierDoesNotMatch,
    `QueryRetrieveLevel ${level || '(none)'} is not one of the ${model} model`,
  );
}

/** A key's text value ('' when absent, a number or a sequence). */
function textKey(identifier: DicomAttributes, name: string): string {
  const value = identifier[name];
  return typeof value === 'string' ? value : '';
}

/** A test of a row against every key of the identifier this level knows (non-empty ones). */
function matching<Row>(identifier: DicomAttributes, attributes: Record<string, Attribute<Row>>) {
  const tests: { attribute: Attribute<Row>; test: Matcher }[] = [];
  for (const [name, attribute] of Object.entries(attributes)) {
    const value = identifier[name];
    if (typeof value !== 'string') continue;
    const test = matcherFor(attribute.kind, value);
    if (test) tests.push({ attribute, test });
  }
  return (row: Row) =>
    tests.every(({ attribute, test }) => {
      const stored = attribute.value(row);
      return attribute.multi ? stored.split('\\').some(test) : test(stored);
    });
}

/** Keys the response identifier never echoes: the encoder sets the character set itself. */
const NOT_ECHOED = new Set(['SpecificCharacterSet', 'QueryRetrieveLevel', 'RetrieveAETitle']);

/** The response identifier: every key asked for, with the index's value or empty, and the level. */
function answer<Row>(
  identifier: DicomAttributes,
  level: string,
  attributes: Record<string, Attribute<Row>>,
  row: Row,
  ourAeTitle: string,
): QueryKeys {
  const keys: QueryKeys = { QueryRetrieveLevel: level, RetrieveAETitle: ourAeTitle };
  for (const [name, value] of Object.entries(identifier)) {
    if (NOT_ECHOED.has(name)) continue;
    const attribute = attributes[name];
    if (attribute) keys[name] = attribute.value(row);
    // Unknown keys come back empty; sequences and binary numbers we do not hold are left out.
    else if (!Array.isArray(value)) keys[name] = '';
  }
  return keys;
}

/** The non-empty keys a query matched on, for its audit event (bounded). */
function askedValues(identifier: DicomAttributes): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(identifier)) {
    if (typeof value === 'string' && value !== '' && name !== 'SpecificCharacterSet')
      out[name] = value.slice(0, 200);
    if (Object.keys(out).length === 20) break;
  }
  return out;
}
