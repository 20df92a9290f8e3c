import { useContext, useMemo, useState } from 'react';
import { useMutation } from '@tanstack/react-query';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  Chip,
  Link,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import Download from '@mui/icons-material/Download';
import type { AuditLogEntry } from '@imaging-inbox/contract';
import { AUDIT_FILTER_ACTIONS, DEBOUNCE_MS } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { DatePreferencesContext, useDateDisplay } from '../../../lib/date-preferences';
import { zonedInstant } from '../../../lib/zoned-time';
import { formatPatientName } from '../../../lib/format';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useAccountUsers } from '../api/account-users';
import { downloadAuditLogCsv, useAuditLog, type AuditLogQuery } from '../api/audit-log';
import { actionLabel, detailText, isFailure } from '../lib/audit-entry';
import { DayTimeField, NO_DAY_TIME, type DayTime } from './DayTimeField';

const PAGE_SIZES = [25, 50, 100];

interface UserOption {
  uuid: string;
  name: string;
  email: string;
}

/**
 * A From or To bound as ms in the user's time zone (Profile; none: the browser's), or null when
 * blank or unreadable. A bound without a time is the start (From) or end (To) of its day; To
 * includes its whole minute.
 */
function boundTime(value: DayTime, end: boolean, timeZone: string | null): number | null {
  const time = value.time.trim() || (end ? '23:59' : '00:00');
  const ms = zonedInstant(value.day, time, timeZone);
  return ms === null ? null : end ? ms + 59_999 : ms;
}

/**
 * Administration → Audit Log (/organization/audit.html), for holders of audit_view: every event of
 * the account, failed sign-ins included, filtered by user, study, action and time, a page at a
 * time, and the filtered log as a CSV file.
 */
export function AuditLogPage() {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const { timeZone } = useContext(DatePreferencesContext);
  const { account, permissions } = useInbox();
  const mayView = permissions.audit_view === 1;
  const mayListUsers = permissions.account_user_view === 1 || permissions.account_user_edit === 1;
  const [user, setUser] = useState<UserOption | null>(null);
  const [userSearch, setUserSearch] = useState('');
  const [study, setStudy] = useState<{ uuid: string; label: string } | null>(null);
  const [actions, setActions] = useState<string[]>([]);
  const [from, setFrom] = useState<DayTime>(NO_DAY_TIME);
  const [to, setTo] = useState<DayTime>(NO_DAY_TIME);
  const [page, setPage] = useState(1);
  const [rows, setRows] = useState(PAGE_SIZES[1]!);
  const query: AuditLogQuery = useMemo(
    () => ({
      userId: user?.uuid ?? null,
      studyId: study?.uuid ?? null,
      actions,
      from: boundTime(from, false, timeZone),
      to: boundTime(to, true, timeZone),
    }),
    [user, study, actions, from, to, timeZone],
  );
  const log = useAuditLog(account.uuid, query, page, rows, mayView);
  // Fetched with the sid in a header, never a link carrying it (api/audit-log.ts).
  const exportCsv = useMutation({ mutationFn: () => downloadAuditLogCsv(account.uuid, query) });
  const userFilter = useDebouncedValue(userSearch.trim(), DEBOUNCE_MS);
  const accountUsers = useAccountUsers(
    account.uuid,
    { filter: userFilter, sort: { field: 'name', direction: 'asc' }, rows: 10, page: 1 },
    mayView && mayListUsers,
  );

  if (!mayView) {
    return (
      <PagePanel title={t('Audit Log')}>
        <Alert severity="error">{t("You don't have enough permissions to read the audit log")}</Alert>
      </PagePanel>
    );
  }

  const events = log.data?.events ?? [];
  // Without the users list, the people of the page shown are offered to filter by.
  const userOptions: UserOption[] = mayListUsers
    ? (accountUsers.data?.users ?? [])
    : [
        ...new Map(
          events.flatMap((e) =>
            e.user_id
              ? [[e.user_id, { uuid: e.user_id, name: e.user_name ?? '', email: e.user_email ?? '' }]]
              : [],
          ),
        ).values(),
      ];
  const refilter =
    <V,>(set: (value: V) => void) =>
    (value: V) => {
      set(value);
      setPage(1);
    };
  const filtered = user || study || actions.length || from.day || from.time || to.day || to.time;
  const clearFilters = () => {
    setUser(null);
    setStudy(null);
    setActions([]);
    setFrom(NO_DAY_TIME);
    setTo(NO_DAY_TIME);
    setPage(1);
  };
  const studyLabel = (e: AuditLogEntry) =>
    e.study
      ? [formatPatientName(e.study.patient_name), e.study.description].filter(Boolean).join(' · ') ||
        t('Unnamed study')
      : '';
  // The pager knows only whether a next page exists: one row beyond this page stands for it.
  const shownBefore = (page - 1) * rows;
  const count = log.data?.page.more ? shownBefore + rows + 1 : shownBefore + events.length;

  return (
    <PagePanel
      title={t('Audit Log')}
      actions={
        <Button
          variant="outlined"
          startIcon={<Download />}
          onClick={() => exportCsv.mutate()}
          disabled={exportCsv.isPending}
        >
          {t('Export CSV')}
        </Button>
      }
    >
      <Stack direction="row" useFlexGap sx={{ flexWrap: 'wrap', gap: 1, mb: 2, alignItems: 'center' }}>
        <Autocomplete
          size="small"
          sx={{ width: 240 }}
          options={userOptions}
          value={user}
          onChange={(_e, value) => refilter(setUser)(value)}
          inputValue={userSearch}
          onInputChange={(_e, value) => setUserSearch(value)}
          filterOptions={(options) => options}
          isOptionEqualToValue={(a, b) => a.uuid === b.uuid}
          getOptionLabel={(o) => o.name || o.email}
          renderOption={(props, o) => (
            <li {...props} key={o.uuid}>
              <Box>
                <Typography variant="body2">{o.name || o.email}</Typography>
                <Typography variant="caption" color="text.secondary">
                  {o.email}
                </Typography>
              </Box>
            </li>
          )}
          noOptionsText={t('No users found')}
          renderInput={(params) => <TextField {...params} label={t('User')} />}
        />
        <Autocomplete
          multiple
          freeSolo
          size="small"
          sx={{ minWidth: 240, maxWidth: 420 }}
          options={[...AUDIT_FILTER_ACTIONS]}
          value={actions}
          onChange={(_e, value) =>
            refilter(setActions)(value.map((v) => v.trim().toUpperCase()).filter(Boolean))
          }
          getOptionLabel={(a) => t(actionLabel(a))}
          renderInput={(params) => <TextField {...params} label={t('Action')} />}
        />
        <DayTimeField
          label={t('From')}
          timeLabel={t('From time')}
          value={from}
          onChange={refilter(setFrom)}
        />
        <DayTimeField label={t('To')} timeLabel={t('To time')} value={to} onChange={refilter(setTo)} />
        {study && (
          <Chip
            label={t('Study: {{study}}', { study: study.label })}
            onDelete={() => refilter(setStudy)(null)}
          />
        )}
        {filtered && <Button onClick={clearFilters}>{t('Clear filters')}</Button>}
      </Stack>
      {log.isPending && <Loading />}
      {(log.isError || exportCsv.isError) && <UnexpectedErrorAlert />}
      {log.data && (
        <>
          <TableContainer>
            <Table size="small" aria-label={t('Audit Log')}>
              <TableHead>
                <TableRow>
                  <TableCell>{t('Time')}</TableCell>
                  <TableCell>{t('User')}</TableCell>
                  <TableCell>{t('Action')}</TableCell>
                  <TableCell>{t('Study')}</TableCell>
                  <TableCell>{t('Details')}</TableCell>
                  <TableCell>{t('Address')}</TableCell>
                </TableRow>
              </TableHead>
              <TableBody>
                {events.map((e) => (
                  <TableRow key={e.id} hover>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{dates.timestamp(e.when)}</TableCell>
                    <TableCell>
                      {e.user_name ?? e.user_email ?? t('System')}
                      {e.user_name && e.user_email && (
                        <Typography variant="caption" color="text.secondary" component="div">
                          {e.user_email}
                        </Typography>
                      )}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>
                      {t(actionLabel(e.action))}
                      {isFailure(e) && (
                        <Chip
                          size="small"
                          color="error"
                          variant="outlined"
                          label={t('Failed')}
                          sx={{ ml: 1 }}
                        />
                      )}
                    </TableCell>
                    <TableCell>
                      {e.study && e.object_id && (
                        <Link
                          component="button"
                          type="button"
                          variant="body2"
                          sx={{ textAlign: 'left' }}
                          title={t('Show only the events of this study')}
                          onClick={() => refilter(setStudy)({ uuid: e.object_id!, label: studyLabel(e) })}
                        >
                          {studyLabel(e)}
                        </Link>
                      )}
                    </TableCell>
                    <TableCell sx={{ maxWidth: 360, overflowWrap: 'anywhere' }}>
                      {detailText(e, { day: dates.day, timestamp: dates.timestamp })}
                    </TableCell>
                    <TableCell sx={{ whiteSpace: 'nowrap' }}>{e.ip ?? ''}</TableCell>
                  </TableRow>
                ))}
              </TableBody>
            </Table>
          </TableContainer>
          {events.length === 0 && (
            <Typography color="text.secondary" sx={{ p: 2 }}>
              {t('No events found')}
            </Typography>
          )}
          <TablePagination
            component="div"
            count={count}
            page={page - 1}
            onPageChange={(_e, p) => setPage(p + 1)}
            rowsPerPage={rows}
            rowsPerPageOptions={PAGE_SIZES}
            onRowsPerPageChange={(e) => {
              setRows(Number(e.target.value));
              setPage(1);
            }}
            labelRowsPerPage={t('Rows per page')}
            labelDisplayedRows={({ from: first, to: last }) => (events.length ? `${first}–${last}` : '')}
          />
        </>
      )}
    </PagePanel>
  );
}
