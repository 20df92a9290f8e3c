import { useCallback, useState, type ReactNode } from 'react';
import { Box, Tab, Tabs } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { useInbox } from '../../../session/inbox-context';
import { EXAM_TABS } from '../exam-tab-registry';
import { examTabs, type ExamTabContext } from '../lib/exam-tabs';

interface Props extends ExamTabContext {
  /** Prefix of the tab and panel element ids, unique on the page. */
  idPrefix: string;
  onRemoved: (uuids: string[]) => void;
  /** Shown instead of the strip when no tab applies. */
  empty?: ReactNode;
  /** Styles of the tab panel. */
  panelSx?: object;
}

/** The tabs of the exam-details registry that apply to this selection, and the open tab's screen. */
export function ExamTabStrip({ idPrefix, onRemoved, empty = null, panelSx, ...ctx }: Props) {
  const { t } = useTranslation();
  const { account, permissions, groups } = useInbox();
  // Account-level flags (order_view…) with those of the study's group: either grants.
  const group = groups.find((g) => g.namespaceId === ctx.studies[0]?.phi_namespace);
  const granted = { ...permissions };
  for (const [name, flag] of Object.entries(group?.permissions ?? {}))
    if (flag === 1) granted[name as keyof typeof granted] = 1;
  const { tabs, defaultTab } = examTabs({ ...ctx, permissions: granted }, EXAM_TABS);
  const [chosen, setChosen] = useState<string | null>(null);
  const onLeave = useCallback(() => setChosen('summary'), []);
  const current = tabs.find((tab) => tab.id === chosen) ?? defaultTab;
  if (!current) return empty;
  return (
    <>
      <Tabs
        value={current.id}
        onChange={(_e, id: string) => setChosen(id)}
        aria-label={t('Exam details tabs')}
        // Up to ten tabs in a 460 px panel: one row that scrolls sideways, its arrows showing that more
        // tabs lie that way, so the open tab's screen starts right under it (wrapped rows pushed it
        // 150 to 200 px down at 1280 px). The open tab is scrolled into view; labels are never cut.
        variant="scrollable"
        scrollButtons="auto"
        allowScrollButtonsMobile
        sx={{
          minHeight: 40,
          '& .MuiTabs-scrollButtons': { width: 28, flexShrink: 0 },
          '& .MuiTabs-scrollButtons.Mui-disabled': { opacity: 0.3 },
          '& .MuiTab-root': { minWidth: 0, minHeight: 40, px: 1.5 },
        }}
      >
        {tabs.map((tab) => (
          <Tab
            key={tab.id}
            value={tab.id}
            label={t(tab.label)}
            id={`${idPrefix}-tab-${tab.id}`}
            aria-controls={`${idPrefix}-tabpanel-${tab.id}`}
          />
        ))}
      </Tabs>
      <Box
        role="tabpanel"
        id={`${idPrefix}-tabpanel-${current.id}`}
        aria-labelledby={`${idPrefix}-tab-${current.id}`}
        sx={panelSx}
      >
        {current.render({
          studies: ctx.studies,
          state: ctx.state,
          accountId: account.uuid,
          onRemoved,
          onLeave,
        })}
      </Box>
    </>
  );
}
