import { useCallback, useState } from 'react';
import { Box, IconButton, Tab, Tabs, Typography } from '@mui/material';
import Close from '@mui/icons-material/Close';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { formatPatientName } from '../../../lib/format';
import type { InboxGroupType } from '../../inbox/lib/groups';
import { examTabs, type ExamTab } from '../lib/exam-tabs';
import { AttachmentsTab } from './AttachmentsTab';
import { DeleteTab } from './DeleteTab';
import { DownloadsTab } from './DownloadsTab';
import { EditMrnTab } from './EditMrnTab';
import { ExchangeTab } from './ExchangeTab';
import { useInbox } from '../../inbox/inbox-context';
import { SendTab } from './SendTab';
import { ShareTab } from './ShareTab';
import { StudySummary } from './StudySummary';
import { ViewerTab } from './ViewerTab';

/** Tabs with a screen so far; the others appear as their features land. */
export const IMPLEMENTED_TABS: ExamTab[] = [
  'Summary',
  'Viewer',
  'Downloads',
  'Share',
  'Send exams',
  'Edit MRN',
  'Attachments',
  'Delete exams',
  'Exchange',
];

interface Props {
  study: Study;
  groupType: InboxGroupType;
  state: string;
  onClose: () => void;
  /** Studies that left the current list (deleted or restored). */
  onRemoved: (uuids: string[]) => void;
}

/** The info panel of one study. */
export function StudyDetailsPanel({ study, groupType, state, onClose, onRemoved }: Props) {
  const { t } = useTranslation();
  const { account } = useInbox();
  const { tabs, defaultTab } = examTabs({ groupType, state, studies: [study] });
  const shown = tabs.filter((tab) => IMPLEMENTED_TABS.includes(tab));
  const [chosen, setChosen] = useState<ExamTab | null>(null);
  const backToSummary = useCallback(() => setChosen('Summary'), []);
  const current = [chosen, defaultTab, shown[0]].find((tab) => tab && shown.includes(tab)) ?? 'Summary';
  return (
    <Box
      component="aside"
      aria-label={t('Exam details')}
      sx={{
        width: 460,
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
      }}
    >
      <Box sx={{ display: 'flex', alignItems: 'center', px: 2, pt: 1 }}>
        <Typography variant="h6" component="h2" sx={{ flex: 1 }} noWrap>
          {formatPatientName(study.patient_name)}
        </Typography>
        <IconButton aria-label={t('Close details')} onClick={onClose}>
          <Close />
        </IconButton>
      </Box>
      <Tabs
        value={current}
        onChange={(_e, tab: ExamTab) => setChosen(tab)}
        variant="scrollable"
        aria-label={t('Exam details tabs')}
      >
        {shown.map((tab) => (
          <Tab
            key={tab}
            value={tab}
            label={t(tab)}
            id={`exam-tab-${tab}`}
            aria-controls={`exam-tabpanel-${tab}`}
          />
        ))}
      </Tabs>
      <Box
        role="tabpanel"
        id={`exam-tabpanel-${current}`}
        aria-labelledby={`exam-tab-${current}`}
        sx={{ p: 2, overflowY: 'auto', flex: 1 }}
      >
        {current === 'Summary' && <StudySummary study={study} />}
        {current === 'Viewer' && <ViewerTab study={study} onClose={backToSummary} />}
        {current === 'Downloads' && <DownloadsTab studies={[study]} />}
        {current === 'Share' && <ShareTab studies={[study]} />}
        {current === 'Send exams' && <SendTab studies={[study]} />}
        {current === 'Edit MRN' && <EditMrnTab study={study} />}
        {current === 'Attachments' && <AttachmentsTab study={study} />}
        {current === 'Exchange' && <ExchangeTab study={study} accountId={account.uuid} />}
        {current === 'Delete exams' && (
          <DeleteTab studies={[study]} deleted={state === 'Deleted items'} onDone={onRemoved} />
        )}
      </Box>
    </Box>
  );
}
