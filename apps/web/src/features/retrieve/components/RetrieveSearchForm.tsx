import { useState } from 'react';
import { Alert, Button, Grid, MenuItem, TextField } from '@mui/material';
import { retrieveSearchProblem, type Destination, type RetrieveSearchForm } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { toIsoDay } from '../../../lib/dates';
import { cutName } from '../../../lib/format';
import { EMPTY_SEARCH, RETRIEVE_MODALITIES } from '../lib/retrieve-form';
import { DayField } from '../../../components/DayField';

interface Props {
  destinations: Destination[];
  searching: boolean;
  onSearch: (form: RetrieveSearchForm) => void;
}

/** The Retrieve Study search form (SPEC.md section 5's rules, checked before anything is asked). */
export function RetrieveSearchFormView({ destinations, searching, onSearch }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState<RetrieveSearchForm>(EMPTY_SEARCH);
  const [problem, setProblem] = useState<string | null>(null);
  const set = (field: keyof RetrieveSearchForm) => (e: { target: { value: string } }) =>
    setForm({ ...form, [field]: e.target.value });

  const submit = () => {
    const found = retrieveSearchProblem(form, toIsoDay(new Date()));
    setProblem(found);
    if (!found) onSearch(form);
  };
  const showStart = form.date_mode !== 'before';
  const showEnd = form.date_mode === 'between' || form.date_mode === 'before';

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      aria-label={t('Search a destination')}
    >
      <Grid container spacing={2}>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            select
            fullWidth
            label={t('Destination')}
            value={form.destination_id}
            onChange={set('destination_id')}
          >
            {destinations.map((d) => (
              <MenuItem key={d.uuid} value={d.uuid} title={d.name}>
                {cutName(d.name)}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            fullWidth
            label={t('Patient name')}
            value={form.patient_name}
            onChange={set('patient_name')}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField fullWidth label={t('MRN')} value={form.patientid} onChange={set('patientid')} />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            fullWidth
            label={t('Accession number')}
            value={form.accession_number}
            onChange={set('accession_number')}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            fullWidth
            label={t('Description')}
            value={form.study_description}
            onChange={set('study_description')}
          />
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField select fullWidth label={t('Modality')} value={form.modality} onChange={set('modality')}>
            <MenuItem value="">{t('All')}</MenuItem>
            {RETRIEVE_MODALITIES.map((m) => (
              <MenuItem key={m} value={m}>
                {m}
              </MenuItem>
            ))}
          </TextField>
        </Grid>
        <Grid size={{ xs: 12, md: 4 }}>
          <TextField
            select
            fullWidth
            label={t('Study date')}
            value={form.date_mode}
            onChange={set('date_mode')}
          >
            <MenuItem value="between">{t('Between')}</MenuItem>
            <MenuItem value="equal">{t('Equal')}</MenuItem>
            <MenuItem value="before">{t('Before')}</MenuItem>
            <MenuItem value="after">{t('After')}</MenuItem>
          </TextField>
        </Grid>
        {showStart && (
          <Grid size={{ xs: 12, md: 4 }}>
            <DayField
              fullWidth
              label={form.date_mode === 'equal' ? t('Date') : t('From')}
              value={form.start_date}
              onChange={(day) => set('start_date')({ target: { value: day } })}
            />
          </Grid>
        )}
        {showEnd && (
          <Grid size={{ xs: 12, md: 4 }}>
            <DayField
              fullWidth
              label={t('To')}
              value={form.end_date}
              onChange={(day) => set('end_date')({ target: { value: day } })}
            />
          </Grid>
        )}
        <Grid size={12}>
          {problem && (
            <Alert severity="warning" sx={{ mb: 2 }}>
              {t(problem)}
            </Alert>
          )}
          <Button type="submit" variant="contained" disabled={searching}>
            {t('Search')}
          </Button>
        </Grid>
      </Grid>
    </form>
  );
}
