import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Link,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import {
  ORDER_SEARCH_FILTERS,
  ORDER_SEARCH_FILTER_LABELS,
  orderSearchProblem,
  rankOrders,
  type ExamDemographics,
  type OrderQuery,
  type OrderSearchFilter,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { errorCode } from '../../../../lib/api-error';
import { formatModalities, formatPatientName } from '../../../../lib/format';
import { useDateDisplay } from '../../../../lib/date-preferences';
import { useOrderSearch, type FoundOrder } from '../../api/order-search';

interface Props {
  groupUuid: string;
  exam: ExamDemographics;
  onChoose: (order: FoundOrder, candidates: FoundOrder[]) => void;
  onWithoutOrder: () => void;
  onBack: () => void;
}

/** Search Order (MWL flow): find the exam's order by accession number, patient name or MRN. */
export function SearchOrderStep({ groupUuid, exam, onChoose, onWithoutOrder, onBack }: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const [filter, setFilter] = useState<OrderSearchFilter>('patientid');
  const [value, setValue] = useState(exam.patientid);
  const [problem, setProblem] = useState<string | null>(null);
  const [query, setQuery] = useState<OrderQuery | null>(null);
  const search = useOrderSearch(groupUuid, query);
  const code = search.isError ? errorCode(search.error) : null;
  const orders = search.data?.orders ?? [];
  const worklist = search.data?.worklist;
  const label = (f: OrderSearchFilter) => t(ORDER_SEARCH_FILTER_LABELS[f]);
  const ranked = rankOrders(exam, orders).ranked;

  const submit = () => {
    const found = orderSearchProblem(filter, value);
    setProblem(found);
    if (!found) setQuery({ filter, value: value.trim() });
  };

  return (
    <Stack spacing={2}>
      <Box
        component="form"
        onSubmit={(e) => {
          e.preventDefault();
          submit();
        }}
        sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
      >
        <TextField
          select
          size="small"
          label={t('Find orders of')}
          value={filter}
          onChange={(e) => {
            setFilter(e.target.value as OrderSearchFilter);
            setProblem(null);
          }}
          sx={{ width: 180, flexShrink: 0 }}
        >
          {ORDER_SEARCH_FILTERS.map((f) => (
            <MenuItem key={f} value={f}>
              {label(f)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          size="small"
          label={label(filter)}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={problem !== null}
          helperText={problem !== null ? t(problem) : undefined}
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="contained" disabled={search.isFetching}>
          {t('Search')}
        </Button>
      </Box>
      {worklist?.state === 'failed' && (
        <Alert severity="warning">
          {t('The worklist of {{destination}} did not answer: {{reason}}', {
            destination: worklist.destination_name,
            reason: worklist.reason,
          })}
        </Alert>
      )}
      {code === 'NOT_PERMITTED' && (
        <Alert severity="warning">{t('You are not permitted to view orders in this account.')}</Alert>
      )}
      {code && code !== 'NOT_PERMITTED' && code !== 'NOT_FOUND' && (
        <Alert severity="error">{t('The order search failed.')}</Alert>
      )}
      {(code === 'NOT_FOUND' || (search.isSuccess && orders.length === 0)) && (
        <Alert severity="info" aria-label={t('No orders found')}>
          {t('No orders found for this {{filter}}.', { filter: label(filter) })}{' '}
          <Link component="button" onClick={onWithoutOrder} sx={{ verticalAlign: 'baseline' }}>
            {t('Send to PACS without an order')}
          </Link>
        </Alert>
      )}
      {ranked.length > 0 && (
        <List
          dense
          aria-label={t('Orders found')}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
        >
          {ranked.map((r, i) => (
            <ListItemButton
              key={r.order.uuid ?? `${r.order.accession_number}-${i}`}
              onClick={() => onChoose(r.order, orders)}
            >
              <ListItemText
                primary={`${formatPatientName(r.order.patient_name)} · ${t('MRN')} ${r.order.patientid || '—'}`}
                secondary={`${r.order.source ? `${t(r.order.source)} · ` : ''}${t('Accession')} ${r.order.accession_number || '—'} · ${formatModalities(r.order.modality) || '—'} · ${
                  dates.day(r.order.scheduled_date) || '—'
                } · ${r.order.requested_procedure || ''}`}
              />
              <Typography variant="caption" sx={{ ml: 1, whiteSpace: 'nowrap' }}>
                {t('{{score}}% match', { score: r.score })}
              </Typography>
            </ListItemButton>
          ))}
        </List>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between', alignItems: 'center' }}>
        <Button onClick={onBack}>{t('Back')}</Button>
        {orders.length > 0 && (
          <Link component="button" onClick={onWithoutOrder}>
            {t('Send to PACS without an order')}
          </Link>
        )}
      </Stack>
    </Stack>
  );
}
