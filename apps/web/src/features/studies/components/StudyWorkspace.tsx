import { useCallback, useEffect, useMemo, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { useSearchParams } from 'react-router';
import { Alert, Box } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorCode } from '../../../lib/api-error';
import { allowsMultiSelect, groupDisplayName, type InboxGroup } from '../../../session/groups';
import type { StudyFilterParams } from '../../../session/state-filters';
import { countAdvancedFilters, searchFilters, useSearch } from '../../search';
import { studyCountQuery, studyListQuery } from '../api/list-studies';
import { withoutUuids } from '../lib/exam-actions';
import { effectiveSort, sortOptions } from '../lib/sort-options';
import { MultiSelectPanel } from './MultiSelectPanel';
import { StudyDetailsPanel } from './StudyDetailsPanel';
import { StudyList } from './StudyList';
import { StudyListToolbar } from './StudyListToolbar';
import { StudyPagination } from './StudyPagination';

const timeZone = Intl.DateTimeFormat().resolvedOptions().timeZone;

interface Props {
  group: InboxGroup;
  state: string;
  stateFilter: StudyFilterParams;
}

/** The study list of one group state with its search, sort, pages and details panel. */
export function StudyWorkspace({ group, state, stateFilter }: Props) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { state: search, dispatch } = useSearch();
  const [params, setParams] = useSearchParams();
  const [checked, setChecked] = useState<Map<string, Study>>(() => new Map());

  const options = useMemo(() => sortOptions(group.type, state), [group.type, state]);
  const sort = effectiveSort(search.sort, options);
  useEffect(() => {
    if (sort !== search.sort) dispatch({ type: 'setSort', sort });
  }, [sort, search.sort, dispatch]);

  const filters = useMemo(
    () => ({ ...stateFilter, ...searchFilters(search.applied, new Date(), timeZone) }),
    [stateFilter, search.applied],
  );
  const list = useQuery(studyListQuery({ filters, sort, page: search.page, rows: search.rows }));
  const count = useQuery(studyCountQuery(filters));

  useEffect(() => {
    if (list.isError && errorCode(list.error) !== 'UNAUTHORIZED') {
      enqueueSnackbar(t('Failed to load exams'), { variant: 'error', preventDuplicate: true });
    }
  }, [list.isError, list.error, enqueueSnackbar, t]);

  const activeUuid = params.get('study');
  const active = list.data?.studies.find((s) => s.uuid === activeUuid) ?? null;
  const open = useCallback(
    (study: Study) =>
      setParams(
        (prev) => {
          const next = new URLSearchParams(prev);
          next.set('study', study.uuid);
          return next;
        },
        { replace: true },
      ),
    [setParams],
  );
  const closeDetails = () => setParams({}, { replace: true });
  // Deleting (or restoring) takes studies out of this list, so out of the selection and the panel.
  const removed = (uuids: string[]) => {
    setChecked((prev) => withoutUuids(prev, uuids));
    if (activeUuid && uuids.includes(activeUuid)) closeDetails();
  };
  const check = useCallback((study: Study, on: boolean) => {
    setChecked((prev) => {
      const next = new Map(prev);
      if (on) next.set(study.uuid, study);
      else next.delete(study.uuid);
      return next;
    });
  }, []);

  const searching =
    search.applied.patientName !== '' || countAdvancedFilters(search.applied.advanced, new Date()) > 0;
  const header = searching
    ? t('Search results in {{group}} · {{state}}', { group: groupDisplayName(group), state: t(state) })
    : `${groupDisplayName(group)} · ${t(state)}`;
  const multiSelect = allowsMultiSelect(group.type);

  return (
    <Box sx={{ flex: 1, minHeight: 0, display: 'flex' }}>
      <Box sx={{ flex: 1, minWidth: 0, display: 'flex', flexDirection: 'column' }}>
        <StudyListToolbar
          header={header}
          total={count.data?.count}
          sort={sort}
          options={options}
          onSort={(next) => dispatch({ type: 'setSort', sort: next })}
        />
        {list.isError && !list.data && (
          <Box sx={{ px: 2 }}>
            {errorCode(list.error) === 'NOT_PERMITTED' ? (
              <Alert severity="warning">{t('You are not allowed to see these exams.')}</Alert>
            ) : (
              <UnexpectedErrorAlert />
            )}
          </Box>
        )}
        <StudyList
          studies={list.data?.studies}
          loading={list.isFetching}
          activeUuid={activeUuid}
          multiSelect={multiSelect}
          checked={new Set(checked.keys())}
          onOpen={open}
          onCheck={check}
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
      {checked.size > 1 ? (
        <MultiSelectPanel
          studies={[...checked.values()]}
          groupType={group.type}
          state={state}
          onClear={() => setChecked(new Map())}
          onRemoved={removed}
        />
      ) : (
        active && (
          <StudyDetailsPanel
            key={active.uuid}
            study={active}
            groupType={group.type}
            state={state}
            onClose={closeDetails}
            onRemoved={removed}
          />
        )
      )}
    </Box>
  );
}
