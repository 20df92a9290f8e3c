/**
 * What the DICOM listener asks when a registered node queries or retrieves (C-FIND, C-MOVE, C-GET
 * SCP). The listener declares the questions and does the wire work (contexts, pending responses,
 * C-CANCEL, sub-operations); a workflow module answers them from the index (dicom-peer's
 * `QueryRetrieveService`), as `MoveDeliveries` does for C-MOVE deliveries, so the kernel never
 * imports a module. See README.md beside this file and decision 0061.
 */
import type { DicomAttributes, QueryKeys, StoreSource } from './client/types.js';

export const QUERY_RETRIEVE_SOP_CLASSES = {
  patientRootFind: '1.2.840.10008.5.1.4.1.2.1.1',
  patientRootMove: '1.2.840.10008.5.1.4.1.2.1.2',
  patientRootGet: '1.2.840.10008.5.1.4.1.2.1.3',
  studyRootFind: '1.2.840.10008.5.1.4.1.2.2.1',
  studyRootMove: '1.2.840.10008.5.1.4.1.2.2.2',
  studyRootGet: '1.2.840.10008.5.1.4.1.2.2.3',
} as const;

export type QueryModel = 'patient-root' | 'study-root';
export type QueryService = 'find' | 'move' | 'get';

/** The information model and service of a Query/Retrieve SOP class, or undefined for another class. */
export function queryRetrieveClass(uid: string): { model: QueryModel; service: QueryService } | undefined {
  const c = QUERY_RETRIEVE_SOP_CLASSES;
  switch (uid) {
    case c.patientRootFind:
      return { model: 'patient-root', service: 'find' };
    case c.patientRootMove:
      return { model: 'patient-root', service: 'move' };
    case c.patientRootGet:
      return { model: 'patient-root', service: 'get' };
    case c.studyRootFind:
      return { model: 'study-root', service: 'find' };
    case c.studyRootMove:
      return { model: 'study-root', service: 'move' };
    case c.studyRootGet:
      return { model: 'study-root', service: 'get' };
    default:
      return undefined;
  }
}

/** The registered node on the other end of an association, as the listener accepted it. */
export interface QueryCaller {
  nodeId: string;
  accountId: string;
  aeTitle: string;
  ip: string;
  /** This association's id (audit events of one association share it). */
  association: string;
}

/** What a node may do, asked once at association time. */
export interface QueryRights {
  find: boolean;
  /** C-MOVE and C-GET. */
  retrieve: boolean;
}

/** A query as received: its model, level (QueryRetrieveLevel) and keys (decoded identifier). */
export interface QueryRequest {
  model: QueryModel;
  level: string;
  identifier: DicomAttributes;
}

/** Thrown by a handler for a query it cannot run: answered as a failure with this status. */
export class QueryRefused extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** Where a C-MOVE's sub-operations go: a registered node listening at host:port. */
export interface MoveDestination {
  aeTitle: string;
  host: string;
  port: number;
}

export interface QueryRetrieveHandler {
  rights(caller: QueryCaller): Promise<QueryRights>;
  /**
   * The matches of a C-FIND, each the response identifier to send. The listener pulls them one at a
   * time (one pending response each) and stops pulling on C-CANCEL, so a handler reads its source
   * in bounded batches.
   */
  find(caller: QueryCaller, request: QueryRequest): AsyncIterable<QueryKeys>;
  /** The instances a C-MOVE or C-GET asks for, each readable from storage; audited as the node. */
  retrieve(caller: QueryCaller, request: QueryRequest, service: 'move' | 'get'): Promise<StoreSource[]>;
  /** The node a C-MOVE names as its destination, if registered in the caller's account with a port. */
  moveDestination(caller: QueryCaller, aeTitle: string): Promise<MoveDestination | undefined>;
}
