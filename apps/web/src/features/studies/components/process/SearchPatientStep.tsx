import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  LinearProgress,
  List,
  ListItemButton,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import type { Destination } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { cutName, formatPatientName } from '../../../../lib/format';
import { useDateDisplay } from '../../../../lib/date-preferences';
import type { FoundOrder } from '../../api/order-search';
import { usePatientSearch, useStartPatientSearch } from '../../api/patient-search';
import { orderOfFoundExam } from '../../lib/process-flow';

interface Props {
  copyUuid: string;
  /** The gatekeeper group's C-Find destination, the one searched. */
  destination: Destination | null;
  mrn: string;
  onChoose: (order: FoundOrder, candidates: FoundOrder[]) => void;
  onWithoutOrder: () => void;
  onBack: () => void;
}

/** Search Patient (C-Find flow): the patient's exams at a destination, polled until the C-FIND ends. */
export function SearchPatientStep(props: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const [value, setValue] = useState(props.mrn);
  const [blank, setBlank] = useState(false);
  const start = useStartPatientSearch(props.copyUuid);
  const search = usePatientSearch(start.data?.uuid ?? null);
  const found = (search.data?.results ?? []).map(orderOfFoundExam);
  const running = start.isPending || search.data?.state === 'running' || (start.isSuccess && !search.data);

  const submit = () => {
    const trimmed = value.trim();
    setBlank(!trimmed);
    if (trimmed) start.mutate({ patientid: trimmed });
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
          label={t('Destination')}
          value={props.destination?.uuid ?? ''}
          // The group's configuration names the destination searched; shown, not chosen.
          disabled
          sx={{ width: 180, flexShrink: 0 }}
        >
          {props.destination && (
            <MenuItem value={props.destination.uuid} title={props.destination.name}>
              {cutName(props.destination.name)}
            </MenuItem>
          )}
        </TextField>
        <TextField
          size="small"
          label={t('MRN')}
          value={value}
          onChange={(e) => setValue(e.target.value)}
          error={blank}
          helperText={blank ? t('Please enter a value to perform search.') : undefined}
          sx={{ flex: 1 }}
        />
        <Button type="submit" variant="contained" disabled={running}>
          {t('Search')}
        </Button>
      </Box>
      {running && <LinearProgress aria-label={t('Searching')} />}
      {(start.isError || search.data?.state === 'failed') && (
        <Alert severity="error">{search.data?.reason ?? t('The patient search failed.')}</Alert>
      )}
      {search.data?.state === 'done' && found.length === 0 && (
        <Alert severity="info">{t('No results found!')}</Alert>
      )}
      {found.length > 0 && (
        <List
          dense
          aria-label={t('Patients found')}
          sx={{ border: 1, borderColor: 'divider', borderRadius: 1 }}
        >
          {found.map((order, i) => (
            <ListItemButton
              key={`${order.accession_number}-${i}`}
              onClick={() => props.onChoose(order, found)}
            >
              <ListItemText
                primary={`${formatPatientName(order.patient_name)} · ${t('MRN')} ${order.patientid || '—'}`}
                secondary={`${dates.day(order.patient_birth_date) || '—'} · ${order.patient_sex || '—'} · ${
                  order.requested_procedure || ''
                }`}
              />
            </ListItemButton>
          ))}
        </List>
      )}
      <Stack direction="row" spacing={1} sx={{ justifyContent: 'space-between' }}>
        <Button onClick={props.onBack}>{t('Back')}</Button>
        <Button onClick={props.onWithoutOrder}>{t('Continue without a match')}</Button>
      </Stack>
    </Stack>
  );
}
