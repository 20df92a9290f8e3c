import {
  ALL_PERMISSIONS,
  STUDY_PERMISSIONS,
  type GroupSummary,
  type PermissionFlags,
  type Study,
  type StudyPermissionFlags,
} from '@imaging-inbox/contract';

let counter = 0;

export function permissionFlags(granted: string[] | 'all' = 'all'): PermissionFlags {
  return Object.fromEntries(
    ALL_PERMISSIONS.map((p) => [p, granted === 'all' || granted.includes(p) ? 1 : 0]),
  ) as PermissionFlags;
}

export function newGroup(overrides: Partial<GroupSummary> = {}): GroupSummary {
  counter += 1;
  return {
    uuid: `group-${counter}`,
    name: `Group ${counter}`,
    namespace_id: `ns-${counter}`,
    type: 'CLOUD',
    account_id: 'account-1',
    permissions: permissionFlags(),
    ...overrides,
  };
}

export function newStudy(overrides: Partial<Study> = {}): Study {
  counter += 1;
  return {
    uuid: `study-${counter}`,
    study_uid: `1.2.3.${counter}`,
    patient_name: `DOE^JOHN${counter}`,
    patientid: `MRN${counter}`,
    patient_sex: 'M',
    patient_birth_date: '19800101',
    patient_age: '044Y',
    accession_number: `ACC${counter}`,
    study_description: 'CT CHEST',
    study_date: '20240115',
    study_time: '101500',
    modality: 'CT',
    referring_physician: 'SMITH^ANNA',
    source_ae_title: 'MODALITY1',
    destination_ae_title: 'IMAGINGINBOX',
    image_count: 120,
    series_count: 3,
    attachment_count: 0,
    size: 62914560,
    star: 0,
    thin: 0,
    tags: [],
    is_locked: 0,
    lock: null,
    is_frozen: 0,
    must_approve: 0,
    study_status: '',
    study_push_status: [],
    source: null,
    share_message: null,
    storage_namespace: 'storage-1',
    phi_namespace: 'ns-1',
    phi_namespace_name: 'Emergency',
    engine_fqdn: 'localhost',
    created: '2024-01-15T10:20:00Z',
    updated: '2024-01-15T10:20:00Z',
    customfields: [],
    permissions: Object.fromEntries(STUDY_PERMISSIONS.map((p) => [p, 1])) as StudyPermissionFlags,
    viewer_link: '',
    routes: [],
    hl7: [],
    ...overrides,
  };
}
