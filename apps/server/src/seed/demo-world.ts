import type { CustomFieldType, NominationFormField, Permission } from '@imaging-inbox/contract';

/** The demo world a first-time user and the tests rely on; the README documents it. */
export const DEMO_ACCOUNTS = [
  {
    key: 'demo',
    name: 'Demo Hospital',
    vanity: 'demo',
    shareCode: 'DEMO-HOSP',
    settings: {
      enable_inbox_view: '1',
      inbox_allow_switch_between_modes: '1',
      hide_administration_tab: '0',
      enable_dicom_wrapping: '1',
    },
    groups: [
      { key: 'emergency', name: 'Emergency', type: 'CLOUD' },
      { key: 'cardiology', name: 'Cardiology', type: 'CLOUD' },
      { key: 'intake', name: 'PACS Intake', type: 'GATEKEEPER' },
      { key: 'teaching', name: 'Teaching Files', type: 'LIBRARY' },
      { key: 'archive', name: 'PACS Archive', type: 'LIBRARY' },
    ],
  },
  {
    key: 'partner',
    name: 'Partner Clinic',
    vanity: 'partner',
    shareCode: 'PARTNER-CLINIC',
    settings: {
      enable_inbox_view: '1',
      inbox_allow_switch_between_modes: '1',
      hide_administration_tab: '0',
      enable_dicom_wrapping: '1',
    },
    groups: [
      {
        key: 'referrals',
        name: 'Referrals',
        type: 'CLOUD',
        shareCode: 'PARTNER-REFERRALS',
        shareDescription: 'Partner Clinic referrals desk: send exams for second opinions here.',
      },
    ],
  },
] as const;

const CLINICIAN: Permission[] = [
  'study_view',
  'study_upload',
  'study_download',
  'study_download_iso',
  'study_share',
  'study_share_user',
  'study_share_group',
  'study_share_email',
  'study_share_account',
  'study_share_share_code',
  'study_tag',
  'study_star',
  'study_edit',
  'study_delete',
  'study_report_add',
  'link_edit',
  'user_modify_notifications',
];

const GATEKEEPER: Permission[] = [
  'study_view',
  'study_download',
  'study_edit',
  'study_push',
  'study_approve',
  'order_view',
  'order_edit',
  'destination_search',
  'destination_search_mwl',
  'user_modify_notifications',
];

/**
 * Named roles of the demo account (role/*), so the Users and Groups pages show real ones: each demo
 * user holds theirs on the account and in their groups, and what they may do is the role's set.
 */
export interface DemoRole {
  key: string;
  account: string;
  name: string;
  permissions: readonly Permission[];
}

const ARCHIVE_READER: Permission[] = ['study_view', 'study_download'];

export const DEMO_ROLES: readonly DemoRole[] = [
  { key: 'radiologist', account: 'demo', name: 'Radiologist', permissions: CLINICIAN },
  { key: 'pacsCoordinator', account: 'demo', name: 'PACS coordinator', permissions: GATEKEEPER },
  { key: 'referring', account: 'demo', name: 'Referring physician', permissions: ['study_view'] },
  { key: 'archiveReader', account: 'demo', name: 'Archive reader', permissions: ARCHIVE_READER },
];

const roleOf = (key: string): DemoRole => DEMO_ROLES.find((r) => r.key === key)!;

/** A membership through a demo role: its key, and the permissions it grants (the role's). */
const through = (key: string) => ({ role: key, permissions: roleOf(key).permissions });

export interface DemoUser {
  email: string;
  first: string;
  last: string;
  account: string;
  role: 'admin' | 'user';
  /** The demo role a plain user holds on the account (DEMO_ROLES key). */
  accountRole?: string;
  /** Account-level grants of a plain user: their account role's (an admin holds every permission anyway). */
  accountPermissions?: readonly Permission[];
  sysadmin?: boolean;
  groups: { group: string; role?: string; permissions: readonly Permission[] }[];
}

export const DEMO_USERS: DemoUser[] = [
  {
    email: 'admin@demo.local',
    first: 'Ada',
    last: 'Admin',
    account: 'demo',
    role: 'admin',
    sysadmin: true,
    groups: [],
  },
  {
    email: 'clinician@demo.local',
    first: 'Claire',
    last: 'Clinician',
    account: 'demo',
    role: 'user',
    // Its user_modify_notifications lets them choose mails about exams shared with them directly.
    accountRole: 'radiologist',
    accountPermissions: roleOf('radiologist').permissions,
    groups: [
      { group: 'emergency', ...through('radiologist') },
      { group: 'cardiology', ...through('radiologist') },
    ],
  },
  {
    email: 'gatekeeper@demo.local',
    first: 'Gary',
    last: 'Gatekeeper',
    account: 'demo',
    role: 'user',
    accountRole: 'pacsCoordinator',
    accountPermissions: roleOf('pacsCoordinator').permissions,
    groups: [
      { group: 'intake', ...through('pacsCoordinator') },
      // Where the exams they send arrive, so they can see the whole way.
      { group: 'archive', ...through('archiveReader') },
    ],
  },
  {
    email: 'viewer@demo.local',
    first: 'Vera',
    last: 'Viewer',
    account: 'demo',
    role: 'user',
    accountRole: 'referring',
    accountPermissions: roleOf('referring').permissions,
    groups: [{ group: 'emergency', ...through('referring') }],
  },
  {
    email: 'partner@demo.local',
    first: 'Paul',
    last: 'Partner',
    account: 'partner',
    role: 'admin',
    groups: [],
  },
];

/** Connections: Demo Hospital sends to Partner Clinic, received in its Referrals group. */
export const DEMO_CONNECTIONS = [
  { account: 'demo', name: 'Partner Clinic', targetGroup: 'referrals' },
] as const;

/** Custom fields of Demo Hospital's exams, shown in the Exchange tab in this order. */
export const DEMO_CUSTOM_FIELDS: readonly {
  account: string;
  name: string;
  type: CustomFieldType;
  required: boolean;
  options?: readonly string[];
}[] = [
  {
    account: 'demo',
    name: 'Clinical priority',
    type: 'radio',
    required: true,
    options: ['Routine', 'Urgent', 'Stat'],
  },
  {
    account: 'demo',
    name: 'Body part',
    type: 'select',
    required: false,
    options: ['Head', 'Neck', 'Chest', 'Abdomen', 'Pelvis', 'Spine', 'Upper limb', 'Lower limb'],
  },
  { account: 'demo', name: 'Referring ward', type: 'text', required: false },
  { account: 'demo', name: 'Referral reason', type: 'memo', required: false },
];

/**
 * Registered DICOM nodes: a gateway on this machine that delivers into Emergency, and may query and
 * retrieve Emergency and nothing else, C-MOVEs to it going to port 11113 (decision 0061).
 */
export const DEMO_DICOM_NODES = [
  {
    account: 'demo',
    aeTitle: 'DEMO_GATEWAY',
    host: '127.0.0.1',
    group: 'emergency',
    name: 'Demo gateway',
    queryGroups: ['emergency'],
    mayRetrieve: true,
    port: 11113,
  },
] as const;

/**
 * Registered HL7 senders (decision 0056): Demo Hospital's RIS sends from this machine as sending
 * facility HOSP (any sending application); messages from anyone else are rejected (AR).
 */
export const DEMO_HL7_SENDERS = [
  { account: 'demo', name: 'Demo RIS', host: '127.0.0.1', facility: 'HOSP', application: null },
] as const;

/** How the generated studies are spread over the groups. */
export const STUDY_SPREAD: { group: string; share: number }[] = [
  { group: 'emergency', share: 0.4 },
  { group: 'cardiology', share: 0.3 },
  { group: 'intake', share: 0.15 },
  // Exams sent to the archive before: the first group of the admin and the gatekeeper (libraries
  // sort first) opens on exams, not on an empty list.
  { group: 'archive', share: 0.1 },
  { group: 'teaching', share: 0.05 },
];

/**
 * The demo's PACS, with no outside system: our own DICOM listener under a second AE title, storing
 * what is sent to it in the library group PACS Archive. PACS Intake sends there.
 */
export const DEMO_PACS_ARCHIVE = {
  group: 'archive',
  aeTitle: 'PACS_ARCHIVE',
  destinationName: 'PACS Archive',
} as const;

/**
 * The gatekeeper workflow of Demo Hospital: PACS Intake's nomination form (no order query), its
 * destination PACS Archive, and the cloud groups that may nominate to it.
 */
export const DEMO_GATEKEEPER = {
  group: 'intake',
  customFields: [
    { name: 'order_type', label: 'Order type', required: false },
    { name: 'priority', label: 'Priority', required: true, options: ['Routine', 'Priority'] },
    { name: 'mrn', label: 'MRN', required: false },
    { name: 'modality', label: 'Modality', required: false },
    { name: 'reason_for_visit', label: 'Reason for visit', required: true },
    { name: 'additional_patient_history', label: 'Additional patient history', required: false },
    { name: 'exam_external_description', label: 'Exam external description', required: false },
    { name: 'referring_physician', label: 'Referring physician', required: false },
    { name: 'nominated_by', label: 'Nominated by', required: true },
  ] satisfies NominationFormField[],
  promotedFrom: ['emergency', 'cardiology'],
} as const;

/** The demo group that de-identifies what is shared into it, and its profile (issue 33, decision 0067). */
export const DEMO_DEIDENTIFYING_GROUP = {
  group: 'teaching',
  profile: 'Teaching Files',
  options: ['cleanDescriptors'],
} as const;
