import { allGrant, canDownload, canSend, canShare, type ExamTabEntry } from './lib/exam-tabs';
import { AttachmentsTab } from './components/AttachmentsTab';
import { DeleteTab } from './components/DeleteTab';
import { DownloadsTab } from './components/DownloadsTab';
import { EditMrnTab } from './components/EditMrnTab';
import { PacsTab } from './components/PacsTab';
import { ProcessTab } from './components/process/ProcessTab';
import { OrdersTab } from './components/OrdersTab';
import { ReportsTab } from './components/ReportsTab';
import { ExchangeTab } from './components/ExchangeTab';
import { SendTab } from './components/SendTab';
import { ShareTab } from './components/ShareTab';
import { StudySummary } from './components/StudySummary';
import { ViewerTab } from './components/ViewerTab';
import { PendingRequestsTab } from '../request';

const EVERY_GROUP = ['CLOUD', 'LIBRARY', 'GATEKEEPER', 'ALL'] as const;
/** Gatekeeper groups review and process nominations; they have no share, edit or delete tabs. */
const NOT_GATEKEEPER = ['CLOUD', 'LIBRARY', 'ALL'] as const;

/**
 * Every exam-details tab (SPEC.md section 2), in strip order: the single and multi-select panels
 * show exactly the entries whose rules hold. Adding a tab is adding one entry here, with its screen;
 * Search Order is the Process tab's step, not a tab of its own.
 */
export const EXAM_TABS: readonly ExamTabEntry[] = [
  {
    id: 'summary',
    label: 'Summary',
    groupTypes: EVERY_GROUP,
    fromShare: true,
    multiSelect: false,
    render: ({ studies }) => <StudySummary study={studies[0]!} />,
  },
  {
    id: 'viewer',
    label: 'Viewer',
    groupTypes: EVERY_GROUP,
    fromShare: true,
    multiSelect: false,
    render: ({ studies, onLeave }) => <ViewerTab study={studies[0]!} onClose={onLeave} />,
  },
  {
    id: 'downloads',
    label: 'Downloads',
    groupTypes: EVERY_GROUP,
    fromShare: true,
    multiSelect: true,
    when: ({ studies }) => canDownload(studies),
    opensFirst: ({ studies }) => studies.length > 1,
    render: ({ studies }) => <DownloadsTab studies={studies} />,
  },
  {
    id: 'share',
    label: 'Share',
    groupTypes: NOT_GATEKEEPER,
    fromShare: true,
    multiSelect: true,
    when: ({ studies }) => canShare(studies),
    render: ({ studies }) => <ShareTab studies={studies} />,
  },
  {
    id: 'pacs',
    label: 'PACS',
    groupTypes: ['CLOUD'],
    fromShare: true,
    multiSelect: false,
    when: ({ studies }) => allGrant(studies, 'study_push') || allGrant(studies, 'study_share'),
    render: ({ studies, accountId }) => <PacsTab study={studies[0]!} accountId={accountId} />,
  },
  {
    id: 'edit-mrn',
    label: 'Edit MRN',
    groupTypes: NOT_GATEKEEPER,
    fromShare: false,
    multiSelect: false,
    when: ({ studies }) => allGrant(studies, 'study_edit'),
    render: ({ studies }) => <EditMrnTab study={studies[0]!} />,
  },
  {
    id: 'send',
    label: 'Send exams',
    groupTypes: NOT_GATEKEEPER,
    fromShare: true,
    multiSelect: true,
    when: ({ studies }) => canSend(studies),
    render: ({ studies }) => <SendTab studies={studies} />,
  },
  {
    id: 'attachments',
    label: 'Attachments',
    groupTypes: EVERY_GROUP,
    fromShare: true,
    multiSelect: false,
    render: ({ studies }) => <AttachmentsTab study={studies[0]!} />,
  },
  {
    id: 'delete',
    label: 'Delete exams',
    groupTypes: NOT_GATEKEEPER,
    fromShare: true,
    multiSelect: true,
    when: ({ studies }) => allGrant(studies, 'study_delete'),
    render: ({ studies, state, onRemoved }) => (
      <DeleteTab studies={studies} deleted={state === 'Deleted items'} onDone={onRemoved} />
    ),
  },
  {
    id: 'exchange',
    label: 'Exchange',
    groupTypes: EVERY_GROUP,
    fromShare: true,
    multiSelect: false,
    when: ({ groupType, state }) => groupType === 'GATEKEEPER' || state === 'Shared w/ group',
    opensFirst: ({ groupType, state }) => groupType === 'CLOUD' && state === 'Shared w/ group',
    render: ({ studies, accountId }) => <ExchangeTab study={studies[0]!} accountId={accountId} />,
  },
  {
    id: 'process',
    label: 'Process',
    groupTypes: ['GATEKEEPER'],
    fromShare: true,
    multiSelect: false,
    // The default tab of a gatekeeper's nomination (SPEC.md section 2).
    opensFirst: ({ groupType }) => groupType === 'GATEKEEPER',
    render: ({ studies, state, accountId }) => (
      <ProcessTab study={studies[0]!} state={state} accountId={accountId} />
    ),
  },
  {
    id: 'reports',
    label: 'Reports',
    groupTypes: NOT_GATEKEEPER,
    fromShare: true,
    multiSelect: false,
    // Anyone who sees the study reads its reports; adding one (study_report_add) is the tab's form.
    when: ({ studies }) => allGrant(studies, 'study_view'),
    render: ({ studies }) => <ReportsTab study={studies[0]!} />,
  },
  {
    id: 'orders',
    label: 'Orders',
    // A gatekeeper sees the candidates ranked in its Process tab (SPEC.md section 2's gatekeeper tabs).
    groupTypes: NOT_GATEKEEPER,
    fromShare: true,
    multiSelect: false,
    when: ({ permissions }) => permissions?.order_view === 1,
    render: ({ studies, accountId }) => <OrdersTab study={studies[0]!} accountId={accountId} />,
  },
  {
    id: 'pending-requests',
    label: 'Pending Requests',
    // The request links still open for the exam's cloud group, for whoever may make and revoke them
    // (link_edit gates Request Study and the Pending requests state, SPEC.md section 6).
    groupTypes: ['CLOUD'],
    fromShare: true,
    multiSelect: false,
    when: ({ permissions }) => permissions?.link_edit === 1,
    render: ({ studies }) => <PendingRequestsTab namespaceId={studies[0]!.phi_namespace} />,
  },
];
