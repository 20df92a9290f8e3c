import { useMemo, useState } from 'react';
import { useParams } from 'react-router';
import { Alert, Box, Grid, LinearProgress, Typography } from '@mui/material';
import {
  MESSAGES,
  type DestinationRetrieve,
  type DestinationSearchResult,
  type RetrieveSearchForm,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { PagePanel } from '../../../components/PagePanel';
import { useInbox } from '../../../session/inbox-context';
import { useGroupPermission } from '../../../session/use-group-permission';
import { useDestinations } from '../../destinations';
import { useRetrieve, useSearch, useStartSearch } from '../api/destination-search';
import { searchParams } from '../lib/retrieve-form';
import { RetrieveResults } from './RetrieveResults';
import { RetrieveSearchFormView } from './RetrieveSearchForm';
import { SelectedExams } from './SelectedExams';

/** Retrieve Study (needs destination_search): search a destination, pick exams, retrieve them into the group. */
export function RetrieveStudyPage() {
  const { t } = useTranslation();
  const { groupId } = useParams();
  const access = useGroupPermission(groupId, 'destination_search');
  return (
    <PagePanel title={t('Retrieve Study')}>
      {access.kind === 'not-found' && <Alert severity="error">{t(MESSAGES.requestGroupNotFound)}</Alert>}
      {access.kind === 'forbidden' && <Alert severity="error">{t(MESSAGES.retrieveNoPermission)}</Alert>}
      {access.kind === 'ok' && (
        <RetrieveInto namespaceId={access.group.namespaceId} groupName={access.group.name} />
      )}
    </PagePanel>
  );
}

function RetrieveInto({ namespaceId, groupName }: { namespaceId: string; groupName: string }) {
  const { t } = useTranslation();
  const { account } = useInbox();
  const destinations = useDestinations(account.uuid);
  const start = useStartSearch();
  const [searchId, setSearchId] = useState<string | null>(null);
  const search = useSearch(searchId);
  const retrieve = useRetrieve();
  const [selected, setSelected] = useState<Map<string, DestinationSearchResult>>(new Map());

  const retrieves = useMemo(() => {
    const latest = new Map<string, DestinationRetrieve>();
    for (const r of search.data?.retrieves ?? []) latest.set(r.study_uid, r);
    return latest;
  }, [search.data]);

  const onSearch = (form: RetrieveSearchForm) => {
    setSelected(new Map());
    start.mutate(searchParams(form, namespaceId), { onSuccess: (answer) => setSearchId(answer.uuid) });
  };
  const toggle = (exam: DestinationSearchResult) => {
    const next = new Map(selected);
    if (next.has(exam.study_uid)) next.delete(exam.study_uid);
    else next.set(exam.study_uid, exam);
    setSelected(next);
  };
  const retrieveSelected = () => {
    for (const exam of selected.values()) {
      if (retrieves.get(exam.study_uid)?.state === 'running') continue;
      retrieve.mutate(
        { searchId: searchId!, studyUid: exam.study_uid },
        { onSuccess: () => void search.refetch() },
      );
    }
  };

  const searchable = (destinations.data ?? []).filter((d) => d.can_search === 1);
  const data = search.data;
  return (
    <Grid container spacing={2}>
      <Grid size={{ xs: 12, lg: 8 }}>
        <RetrieveSearchFormView
          destinations={searchable}
          searching={start.isPending || data?.state === 'running'}
          onSearch={onSearch}
        />
        <Box sx={{ mt: 3 }}>
          {start.isError && <Alert severity="error">{t(MESSAGES.retrieveSearchFailed)}</Alert>}
          {(start.isPending || data?.state === 'running') && <LinearProgress aria-label={t('Searching')} />}
          {data?.state === 'failed' && (
            <Alert severity="error">
              {t(MESSAGES.retrieveSearchFailed)}: {data.reason}
            </Alert>
          )}
          {data?.state === 'done' && data.reason && <Alert severity="warning">{data.reason}</Alert>}
          {data && data.results.length > 0 && (
            <RetrieveResults results={data.results} selected={new Set(selected.keys())} onToggle={toggle} />
          )}
          {data?.state === 'done' && data.results.length === 0 && (
            <Typography color="text.secondary">{t(MESSAGES.noResults)}</Typography>
          )}
        </Box>
      </Grid>
      <Grid size={{ xs: 12, lg: 4 }}>
        <SelectedExams
          exams={[...selected.values()]}
          retrieves={retrieves}
          retrieving={retrieve.isPending}
          onRetrieve={retrieveSelected}
          groupName={groupName}
        />
      </Grid>
    </Grid>
  );
}
