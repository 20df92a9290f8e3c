import { useQuery } from '@tanstack/react-query';
import { List, ListItem, ListItemText, Typography } from '@mui/material';
import { useDateDisplay } from '../../../lib/date-preferences';
import { useTranslation } from '../../../lib/i18n';
import { auditObjectQuery } from '../api/audit-object';
import { historyDetail, historyKind } from '../lib/history';

/**
 * The study's audit events as upload, view, edit, download, shared, invite, remove share and the
 * retrieves from a PACS that filled it.
 */
export function ExamHistory({ uuid }: { uuid: string }) {
  const { t } = useTranslation();
  const history = useQuery(auditObjectQuery(uuid));
  const dates = useDateDisplay();
  if (history.isPending) return <Typography color="text.secondary">{t('Loading')}</Typography>;
  if (history.isError)
    return <Typography color="text.secondary">{t('History is not available.')}</Typography>;
  const rows = history.data.events
    .map((e) => ({ event: e, kind: historyKind(e.action, e.type, e.outcome) }))
    .filter((r) => r.kind !== null);
  if (rows.length === 0) return <Typography color="text.secondary">{t('No history yet.')}</Typography>;
  return (
    <List dense disablePadding>
      {rows.map(({ event, kind }, index) => (
        <ListItem key={index} disableGutters>
          <ListItemText
            primary={t(kind ?? '')}
            secondary={[historyDetail(kind!, event.detail), event.who, dates.timestamp(event.when)]
              .filter(Boolean)
              .join(' · ')}
          />
        </ListItem>
      ))}
    </List>
  );
}
