import { useState } from 'react';
import { Box, Button, List, ListItem, ListItemText, Tab, Tabs, Typography } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from 'react-i18next';
import { formatPatientName } from '../../../lib/format';
import { useDateDisplay } from '../../../lib/date-preferences';
import type { InboxGroupType } from '../../inbox/lib/groups';
import { examTabs, type ExamTab } from '../lib/exam-tabs';
import { DeleteTab } from './DeleteTab';
import { DownloadsTab } from './DownloadsTab';
import { SendTab } from './SendTab';
import { ShareTab } from './ShareTab';
import { IMPLEMENTED_TABS } from './StudyDetailsPanel';

interface Props {
  studies: Study[];
  groupType: InboxGroupType;
  state: string;
  onClear: () => void;
  /** Studies that left the current list (deleted or restored). */
  onRemoved: (uuids: string[]) => void;
}

/**
 * The details panel for a multi-selection: what is selected and the bulk actions every selected
 * study grants (the tab rules intersect the permissions).
 */
export function MultiSelectPanel({ studies, groupType, state, onClear, onRemoved }: Props) {
  const dates = useDateDisplay();
  const { t } = useTranslation();
  const { tabs, defaultTab } = examTabs({ groupType, state, studies });
  const shown = tabs.filter((tab) => IMPLEMENTED_TABS.includes(tab));
  const [chosen, setChosen] = useState<ExamTab | null>(null);
  const current = [chosen, defaultTab, shown[0]].find((tab) => tab && shown.includes(tab)) ?? null;
  return (
    <Box
      component="aside"
      aria-label={t('Selected exams')}
      sx={{
        width: 460,
        flexShrink: 0,
        borderLeft: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        display: 'flex',
        flexDirection: 'column',
        minHeight: 0,
        overflowY: 'auto',
      }}
    >
      <Box sx={{ px: 2, pt: 2 }}>
        <Typography variant="h6" component="h2">
          {t('{{count}} exams selected', { count: studies.length })}
        </Typography>
        <List dense>
          {studies.map((s) => (
            <ListItem key={s.uuid} disableGutters>
              <ListItemText
                primary={formatPatientName(s.patient_name)}
                secondary={`${s.modality} · ${dates.day(s.study_date)}`}
              />
            </ListItem>
          ))}
        </List>
        <Button onClick={onClear}>{t('Clear selection')}</Button>
      </Box>
      {current ? (
        <>
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
                id={`multi-tab-${tab}`}
                aria-controls={`multi-tabpanel-${tab}`}
              />
            ))}
          </Tabs>
          <Box
            role="tabpanel"
            id={`multi-tabpanel-${current}`}
            aria-labelledby={`multi-tab-${current}`}
            sx={{ p: 2 }}
          >
            {current === 'Downloads' && <DownloadsTab studies={studies} />}
            {current === 'Share' && <ShareTab studies={studies} />}
            {current === 'Send exams' && <SendTab studies={studies} />}
            {current === 'Delete exams' && (
              <DeleteTab studies={studies} deleted={state === 'Deleted items'} onDone={onRemoved} />
            )}
          </Box>
        </>
      ) : (
        <Typography sx={{ p: 2 }} color="text.secondary">
          {t('No action is allowed on every selected exam.')}
        </Typography>
      )}
    </Box>
  );
}
