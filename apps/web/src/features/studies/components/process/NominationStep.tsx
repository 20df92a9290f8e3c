import {
  Box,
  Button,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import type { Nomination, NominationFormField, Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { ScrollTable } from '../../../../components/ScrollTable';
import { formatModalities, formatPatientName } from '../../../../lib/format';
import { useDateDisplay } from '../../../../lib/date-preferences';
import { answerLabel, formText, isMultiline } from '../../lib/nomination-form';
import { nominatorComparison } from '../../lib/process-flow';
import { timeAgo } from '../../lib/time-ago';

interface Props {
  study: Study;
  nomination: Nomination;
  fields: readonly NominationFormField[];
  canDecide: boolean;
  onReject: () => void;
  onProcess: () => void;
}

/** The Nomination step: the nominator's answers, the exam beside what they said, Reject and Process. */
export function NominationStep({ study, nomination, fields, canDecide, onReject, onProcess }: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  // The form's fields in its order, then any answer to a field the form no longer has.
  const names = [
    ...fields.map((f) => f.name),
    ...Object.keys(nomination.answers).filter((n) => !fields.some((f) => f.name === n)),
  ];
  const rows = nominatorComparison(study, nomination);
  return (
    <Stack spacing={2}>
      <Typography variant="body2" color="text.secondary">
        {t('Nominated from {{source}} {{ago}}', {
          source: nomination.source,
          ago: timeAgo(nomination.submitted_at),
        })}
      </Typography>
      <Box
        component="form"
        aria-label={t('Nomination form')}
        sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1.5 }}
      >
        {names.map((name) => {
          const field = fields.find((f) => f.name === name);
          const wide = field ? isMultiline(field) : false;
          return (
            <TextField
              key={name}
              size="small"
              label={formText(answerLabel(fields, name))}
              value={nomination.answers[name] ?? ''}
              multiline={wide}
              slotProps={{ input: { readOnly: true }, inputLabel: { shrink: true } }}
              sx={wide ? { gridColumn: '1 / -1' } : undefined}
            />
          );
        })}
      </Box>
      <ScrollTable label={t('Demographics')}>
        <Table size="small" stickyHeader aria-label={t('Demographics')}>
          <TableHead>
            <TableRow>
              <TableCell />
              <TableCell>{t('Exam')}</TableCell>
              <TableCell>{t('Nominated')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            <TableRow>
              <TableCell component="th">{t('Patient name')}</TableCell>
              <TableCell colSpan={2}>{formatPatientName(study.patient_name)}</TableCell>
            </TableRow>
            <TableRow>
              <TableCell component="th">{t('Birth date')}</TableCell>
              <TableCell colSpan={2}>
                {dates.day(study.patient_birth_date)} · {study.patient_sex || '—'}
              </TableCell>
            </TableRow>
            {rows.map((row) => (
              <TableRow key={row.label} data-differs={row.differs || undefined}>
                <TableCell component="th">{t(row.label)}</TableCell>
                <TableCell>
                  {row.label === 'Referring physician'
                    ? formatPatientName(row.exam)
                    : row.label === 'Modality'
                      ? formatModalities(row.exam) || '—'
                      : row.exam || '—'}
                </TableCell>
                <TableCell
                  sx={row.differs ? { color: 'warning.dark', fontWeight: 600 } : undefined}
                  aria-label={row.differs ? t('{{value}} (differs)', { value: row.nominated }) : undefined}
                >
                  {row.nominated || '—'}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      </ScrollTable>
      {canDecide && (
        <Stack direction="row" spacing={1} sx={{ justifyContent: 'flex-end' }}>
          <Button variant="outlined" color="error" onClick={onReject}>
            {t('Reject')}
          </Button>
          <Button variant="contained" onClick={onProcess}>
            {t('Process')}
          </Button>
        </Stack>
      )}
    </Stack>
  );
}
