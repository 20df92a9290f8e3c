import type { Order, OrderQuery } from '@imaging-inbox/contract';
import { textOf } from '../../dimse/client/index.js';
import type { DicomAttributes, QueryKeys } from '../../dimse/client/index.js';

/**
 * The Search Order step's question to a Modality Worklist (C-FIND), and its answers read as orders.
 * The keys ask for every attribute an order shows; the one filter becomes a matching key (a patient
 * name's `%` wildcards become DICOM's `*`).
 */
export function worklistKeys(query: OrderQuery): QueryKeys {
  const keys: QueryKeys = {
    SpecificCharacterSet: '',
    AccessionNumber: '',
    PatientName: '',
    PatientID: '',
    PatientBirthDate: '',
    PatientSex: '',
    ReferringPhysicianName: '',
    RequestedProcedureDescription: '',
    ScheduledProcedureStepSequence: [
      {
        Modality: '',
        ScheduledProcedureStepStartDate: '',
        ScheduledProcedureStepDescription: '',
        ScheduledPerformingPhysicianName: '',
      },
    ],
  };
  if (query.filter === 'accession_number') keys['AccessionNumber'] = query.value;
  else if (query.filter === 'patientid') keys['PatientID'] = query.value;
  else keys['PatientName'] = query.value.replaceAll('%', '*');
  return keys;
}

/** One worklist answer as an order of the account (not stored: its uuid is `mwl:{accession}`). */
export function orderOfWorklist(result: DicomAttributes, accountId: string, now: number): Order {
  const sequence = result['ScheduledProcedureStepSequence'];
  const step: DicomAttributes = Array.isArray(sequence) && typeof sequence[0] === 'object' ? sequence[0] : {};
  const accession = textOf(result, 'AccessionNumber');
  return {
    uuid: `mwl:${accession}`,
    account_id: accountId,
    accession_number: accession,
    patient_name: textOf(result, 'PatientName'),
    patientid: textOf(result, 'PatientID'),
    patient_birth_date: textOf(result, 'PatientBirthDate'),
    patient_sex: textOf(result, 'PatientSex'),
    requested_procedure:
      textOf(result, 'RequestedProcedureDescription') || textOf(step, 'ScheduledProcedureStepDescription'),
    modality: textOf(step, 'Modality'),
    scheduled_date: textOf(step, 'ScheduledProcedureStepStartDate'),
    referring_physician: textOf(result, 'ReferringPhysicianName'),
    status: 'SCHEDULED',
    source: 'MWL',
    created: now,
    updated: now,
  };
}
