import { useCallback, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useNavigate } from 'react-router';
import { Alert, Box, Typography } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { PagePanel } from '../../../components/PagePanel';
import { useInbox } from '../../../session/inbox-context';
import { statePath } from '../../../session/group-route';
import { stateFilters } from '../../../session/state-filters';
import { searchFilters, useSearch } from '../../search';
import { MultiSelectPanel, StudyPagination, studyCountQuery, studyListQuery } from '../../studies';
import { worklistSort } from '../lib/column-sort';
import { WorklistTable } from './WorklistTable';

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;
/** The worklist searches what the inbox's All My Groups · Inbox shows, so an opened study is found there. */
const STATE = 'Inbox';

/** /worklist (Advanced UI): the inbox's study search as a dense, sortable, keyboard-driven table. */
export function WorklistPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { groups } = useInbox();
  const { state: search, dispatch } = useSearch();
  const [checked, setChecked] = useState<Map<string, Study>>(() => new Map());

  const allGroups = groups.find((g) => g.type === 'ALL');
  const sort = worklistSort(search.sort);
  const filters = useMemo(
    () => ({
      ...(allGroups ? stateFilters(allGroups, STATE) : {}),
      ...searchFilters(search.applied, new Date(), timeZone),
    }),
    [allGroups, search.applied],
  );
  const enabled = allGroups !== undefined;
  const list = useQuery({
    ...studyListQuery({ filters, sort, page: search.page, rows: search.rows }),
    enabled,
  });
  const count = useQuery({ ...studyCountQuery(filters), enabled });

  const groupNames = useMemo(() => new Map(groups.map((g) => [g.namespaceId, g.name])), [groups]);
  const groupName = useCallback(
    (study: Study) => groupNames.get(study.phi_namespace) ?? study.phi_namespace_name,
    [groupNames],
  );
  const check = useCallback((study: Study, on: boolean) => {
    setChecked((prev) => {
      const next = new Map(prev);
      if (on) next.set(study.uuid, study);
      else next.delete(study.uuid);
      return next;
    });
  }, []);
  const removed = (uuids: string[]) =>
    setChecked((prev) => new Map([...prev].filter(([uuid]) => !uuids.includes(uuid))));

  if (!allGroups) {
    return (
      <PagePanel title={t('Advanced UI')}>
        <Typography color="text.secondary">{t('You are not a member of any group yet.')}</Typography>
      </PagePanel>
    );
  }
  const open = (study: Study) =>
    navigate(`${statePath(allGroups, STATE)}?study=${encodeURIComponent(study.uuid)}`);

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
      <Box component="section" sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <Typography variant="h6" component="h1" sx={{ px: 2, py: 1 }}>
          {t('Advanced UI')}
          {count.data && (
            <Typography component="span" color="text.secondary" sx={{ ml: 1 }}>
              {t('{{count}} exams', { count: count.data.count })}
            </Typography>
          )}
        </Typography>
        {list.isError && !list.data && (
          <Alert severity="error" sx={{ mx: 2 }}>
            {t('Failed to load exams')}
          </Alert>
        )}
        <WorklistTable
          studies={list.data?.studies ?? []}
          sort={sort}
          onSort={(next) => dispatch({ type: 'setSort', sort: next })}
          checked={new Set(checked.keys())}
          onCheck={check}
          onOpen={open}
          groupName={groupName}
        />
        <StudyPagination
          total={count.data?.count}
          page={search.page}
          rows={search.rows}
          more={list.data?.page.more === 1}
          shown={list.data?.studies.length}
          onPage={(page) => dispatch({ type: 'setPage', page })}
          onRows={(rows) => dispatch({ type: 'setRows', rows })}
        />
      </Box>
      {checked.size > 0 && (
        <MultiSelectPanel
          studies={[...checked.values()]}
          groupType={allGroups.type}
          state={STATE}
          onClear={() => setChecked(new Map())}
          onRemoved={removed}
        />
      )}
    </Box>
  );
}
