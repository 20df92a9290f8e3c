import { Alert, Chip, List, ListItem, ListItemText, Stack, Typography } from '@mui/material';
import { rankOrders, type Order, type OrderComparison, type Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorCode } from '../../../lib/api-error';
import { formatModalities, formatPatientName } from '../../../lib/format';
import { matchReasons } from '../lib/match-reason';
import { useDateDisplay } from '../../../lib/date-preferences';
import { Loading } from '../../../components/Loading';
import { useStudyOrders } from '../api/study-orders';
import { examDemographics } from '../lib/process-flow';

/**
 * Orders (order_view): the account's orders matched to this exam (its accession number), and the
 * other candidates of its MRN ranked by how well they match, each with its reasons.
 */
export function OrdersTab({ study, accountId }: { study: Study; accountId: string }) {
  const { t } = useTranslation();
  const orders = useStudyOrders(accountId, study);
  if (orders.isPending) return <Loading />;
  if (orders.isError) {
    return errorCode(orders.error) === 'NOT_PERMITTED' ? (
      <Alert severity="warning">{t('You are not permitted to view orders in this account.')}</Alert>
    ) : (
      <Alert severity="error">{t('The orders could not be loaded.')}</Alert>
    );
  }
  const { ranked, warnings } = rankOrders(examDemographics(study), orders.data);
  const isMatched = (o: Order) => !!study.accession_number && o.accession_number === study.accession_number;
  const matched = ranked.filter((r) => isMatched(r.order));
  const candidates = ranked.filter((r) => !isMatched(r.order));
  return (
    <Stack spacing={2}>
      {warnings.map((w) => (
        <Alert key={w} severity="warning">
          {t(w)}
        </Alert>
      ))}
      <OrderList
        title={t('Matched orders')}
        empty={t('No order has this accession number.')}
        items={matched}
      />
      <OrderList
        title={t('Candidate orders, best match first')}
        empty={t('No other order for this MRN.')}
        items={candidates}
      />
    </Stack>
  );
}

function OrderList(props: { title: string; empty: string; items: OrderComparison<Order>[] }) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  return (
    <section aria-label={props.title}>
      <Typography variant="subtitle2" component="h3">
        {props.title}
      </Typography>
      {props.items.length === 0 && (
        <Typography variant="body2" color="text.secondary">
          {props.empty}
        </Typography>
      )}
      <List dense disablePadding>
        {props.items.map((comparison) => {
          const { order, score } = comparison;
          return (
            <ListItem key={order.uuid} disableGutters alignItems="flex-start">
              <ListItemText
                primary={
                  <>
                    {formatPatientName(order.patient_name)} · {t('Accession')} {order.accession_number || '—'}{' '}
                    · {formatModalities(order.modality) || '—'} · {dates.day(order.scheduled_date) || '—'}{' '}
                    <Chip size="small" label={t('{{score}}% match', { score })} sx={{ ml: 0.5 }} />
                  </>
                }
                secondary={
                  <>
                    {[order.requested_procedure, t(order.source), t(order.status)]
                      .filter(Boolean)
                      .join(' · ')}
                    <br />
                    {matchReasons(comparison, dates.format)}
                  </>
                }
              />
            </ListItem>
          );
        })}
      </List>
    </section>
  );
}
