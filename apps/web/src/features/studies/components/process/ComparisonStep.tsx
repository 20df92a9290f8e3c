import { useEffect, useRef, useState } from 'react';
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
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
  alpha,
} from '@mui/material';
import {
  COMPARED_ATTRIBUTES,
  NOMINATION_PRIORITIES,
  compareOrder,
  rankOrders,
  type ApiErrorBody,
  type Destination,
  type DestinationCheckFailedData,
  type ExamDemographics,
  type NominationPriority,
} from '@imaging-inbox/contract';
import { t, useTranslation } from '../../../../lib/i18n';
import { ScrollTable } from '../../../../components/ScrollTable';
import { errorBody, errorCode } from '../../../../lib/api-error';
import { cutName, formatPatientName } from '../../../../lib/format';
import { useDateDisplay } from '../../../../lib/date-preferences';
import type { FoundOrder } from '../../api/order-search';
import { useProcessNomination } from '../../api/study-process';
import { matchReasons } from '../../lib/match-reason';
import { comparisonProblems, processParams, type ComparisonForm } from '../../lib/process-flow';

interface Props {
  copyUuid: string;
  exam: ExamDemographics;
  order: FoundOrder | null;
  candidates: readonly FoundOrder[];
  /** Whether the accession number is typed here (C-Find and no-query flows, or no order). */
  typedAccession: boolean;
  destinations: readonly Destination[];
  priority: NominationPriority;
  onChooseOrder: (order: FoundOrder) => void;
  onStartOver: () => void;
  onBack: () => void;
  onSent: () => void;
}

/**
 * Why Send to PACS failed, in words: the destination that did not answer (or refused the check of
 * whether it already holds the exam), the patient it holds the exam under, or a plain failure.
 */
function failure(code: string, body: ApiErrorBody | undefined, destinationName: string): string {
  const data = (body?.error_data ?? null) as Record<string, unknown> | null;
  if (code === 'DESTINATION_CHECK_FAILED') {
    const checked = data as Partial<DestinationCheckFailedData> | null;
    const destination = checked?.destination_name || destinationName;
    return checked?.status
      ? t(
          '{{destination}} refused to say whether it already holds this exam (status {{status}}). The exam was not sent.',
          { destination, status: checked.status },
        )
      : t(
          '{{destination}} did not answer. The exam was not sent: check that the PACS is running and reachable, or choose another destination.',
          { destination },
        );
  }
  if (code === 'STUDY_UID_CONFLICT') {
    const name = typeof data?.['patient_name'] === 'string' ? formatPatientName(data['patient_name']) : '';
    const mrn = typeof data?.['patientid'] === 'string' ? data['patientid'] : '';
    return name || mrn
      ? t(
          '{{destination}} already holds this exam under another patient ({{patient}}). The exam was not sent.',
          { destination: destinationName, patient: [name, mrn && `MRN ${mrn}`].filter(Boolean).join(', ') },
        )
      : t('The destination already holds this exam under another patient.');
  }
  if (code === 'ALREADY_PROCESSED') return t('This exam was already processed.');
  return t('Failed to send exam to PACS');
}

const isPersonName = (field: string) => field === 'patient_name' || field === 'referring_physician';

/**
 * Order Comparison (SPEC.md section 2): the exam and the chosen order side by side with every
 * difference marked, the candidates ranked with their reasons, and the form that sends to PACS.
 */
export function ComparisonStep(props: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const process = useProcessNomination();
  const [form, setForm] = useState<ComparisonForm>({
    accessionNumber: '',
    priority: props.priority,
    destinationId: props.destinations.length === 1 ? props.destinations[0]!.uuid : '',
  });
  const [touched, setTouched] = useState(false);
  const problems = comparisonProblems(form);
  const valid = Object.keys(problems).length === 0;

  const typed = props.typedAccession ? form.accessionNumber.trim() : '';
  const sent = props.order && typed ? { ...props.order, accession_number: typed } : props.order;
  const comparison = sent ? compareOrder(props.exam, sent) : null;
  const ranking = rankOrders(props.exam, props.candidates);
  const shownValue = (field: string, value: string) =>
    field.endsWith('date') ? dates.day(value) : isPersonName(field) ? formatPatientName(value) : value;

  const send = () => {
    setTouched(true);
    if (!valid) return;
    process.mutate(processParams(props.copyUuid, props.order, form), { onSuccess: props.onSent });
  };
  const locked = process.isPending || process.isSuccess;
  const destinationName = props.destinations.find((d) => d.uuid === form.destinationId)?.name ?? '';
  const failed = process.isError ? process.error : null;
  const buttonsRef = useRef<HTMLDivElement>(null);
  // The reason shows just above the button that was pressed; both are brought into view if the
  // step is long.
  useEffect(() => {
    if (failed) buttonsRef.current?.scrollIntoView?.({ block: 'nearest' });
  }, [failed]);

  return (
    <Stack spacing={2}>
      <Link component="button" onClick={props.onStartOver} sx={{ alignSelf: 'flex-start' }}>
        {t('Start over')}
      </Link>
      {ranking.warnings.map((w) => (
        <Alert key={w} severity="warning">
          {t(w)}
        </Alert>
      ))}
      <ScrollTable label={t('Exam and order')}>
        <Table size="small" stickyHeader aria-label={t('Exam and order')}>
          <TableHead>
            <TableRow>
              <TableCell />
              <TableCell>{t('Exam')}</TableCell>
              <TableCell>{props.order ? t('Order') : t('Sent as')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {(
              comparison?.attributes ??
              COMPARED_ATTRIBUTES.map((a) => ({
                exam_field: a.exam,
                label: a.label,
                exam: props.exam[a.exam],
                order: a.exam === 'accession_number' && typed ? typed : props.exam[a.exam],
                differs: a.exam === 'accession_number' && !!typed && typed !== props.exam.accession_number,
              }))
            )
              // A value the order lacks is not written: the exam keeps its own, so it is no difference.
              .map((row) => {
                const kept = !!props.order && !row.order.trim();
                return { ...row, kept, differs: row.differs && !kept };
              })
              .map((row) => (
                <TableRow
                  key={row.exam_field}
                  data-differs={row.differs || undefined}
                  sx={
                    row.differs
                      ? {
                          bgcolor: (theme) => alpha(theme.palette.warning.main, 0.14),
                          '& td, & th': { fontWeight: 600 },
                        }
                      : undefined
                  }
                >
                  <TableCell component="th">
                    {t(row.label)}
                    {row.differs && (
                      <Box component="span" sx={{ ml: 0.5 }} aria-label={t('differs')}>
                        ≠
                      </Box>
                    )}
                  </TableCell>
                  <TableCell>{shownValue(row.exam_field, row.exam) || '—'}</TableCell>
                  <TableCell sx={row.kept ? { color: 'text.secondary' } : undefined}>
                    {row.kept
                      ? t('{{value}} (kept)', { value: shownValue(row.exam_field, row.exam) || '—' })
                      : shownValue(row.exam_field, row.order)}
                  </TableCell>
                </TableRow>
              ))}
          </TableBody>
        </Table>
      </ScrollTable>
      {comparison && (
        <Typography variant="body2" color="text.secondary" component="div">
          {t('{{score}}% match', { score: comparison.score })}: {matchReasons(comparison, dates.format)}
        </Typography>
      )}
      {ranking.ranked.length > 1 && (
        <section aria-label={t('Candidate orders')}>
          <Typography variant="subtitle2" component="h3">
            {t('Candidate orders, best match first')}
          </Typography>
          <List dense disablePadding>
            {ranking.ranked.map((r, i) => (
              <ListItemButton
                key={r.order.uuid ?? `${r.order.accession_number}-${i}`}
                selected={r.order === props.order}
                onClick={() => props.onChooseOrder(r.order)}
              >
                <ListItemText
                  primary={`${t('{{score}}% match', { score: r.score })} · ${formatPatientName(r.order.patient_name)} · ${
                    r.order.accession_number || '—'
                  }`}
                  secondary={matchReasons(r, dates.format)}
                />
              </ListItemButton>
            ))}
          </List>
        </section>
      )}
      <Stack
        spacing={1.5}
        component="form"
        aria-label={t('Send to PACS')}
        onSubmit={(e) => e.preventDefault()}
      >
        {props.typedAccession && (
          <TextField
            size="small"
            label={t('Accession number')}
            value={form.accessionNumber}
            onChange={(e) => setForm({ ...form, accessionNumber: e.target.value })}
            slotProps={{ htmlInput: { maxLength: 16 } }}
            disabled={locked}
          />
        )}
        <TextField
          select
          size="small"
          label={t('Priority')}
          value={form.priority}
          onChange={(e) => setForm({ ...form, priority: e.target.value as NominationPriority })}
          disabled={locked}
        >
          {NOMINATION_PRIORITIES.map((p) => (
            <MenuItem key={p} value={p}>
              {t(p)}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          size="small"
          required
          label={t('Destination system')}
          value={form.destinationId}
          onChange={(e) => {
            setForm({ ...form, destinationId: e.target.value });
            setTouched(true);
          }}
          onBlur={() => setTouched(true)}
          error={touched && !!problems.destinationId}
          helperText={touched && problems.destinationId ? t(problems.destinationId) : undefined}
          disabled={locked}
        >
          {props.destinations.map((d) => (
            <MenuItem key={d.uuid} value={d.uuid} title={d.name}>
              {cutName(d.name)}
            </MenuItem>
          ))}
        </TextField>
        {props.destinations.length === 0 && (
          <Alert severity="warning">{t('No destination is configured for this gatekeeper group.')}</Alert>
        )}
        {failed && (
          <Alert severity="error">
            {failure(errorCode(failed), errorBody(failed), destinationName)}
            {typeof errorBody(failed)?.error_data === 'string' && (
              // The server's reason (the study is locked, a stored file unreadable…).
              <Typography variant="body2">{String(errorBody(failed)?.error_data)}</Typography>
            )}
          </Alert>
        )}
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }} ref={buttonsRef}>
          <Button onClick={props.onBack} disabled={locked}>
            {t('Back')}
          </Button>
          <Button variant="contained" onClick={send} disabled={!valid || locked}>
            {t('Send to PACS')}
          </Button>
        </Stack>
      </Stack>
    </Stack>
  );
}
