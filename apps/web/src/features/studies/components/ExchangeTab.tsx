import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Alert, Box, Button, MenuItem, TextField, Typography } from '@mui/material';
import {
  MESSAGES,
  PATIENT_SEXES,
  localTodayIso,
  type CustomField,
  type Study,
} from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorCode } from '../../../lib/api-error';
import { studyCustomFieldsQuery } from '../api/custom-fields';
import { useStudySet } from '../api/study-set';
import {
  EXAM_FIELD_MAX_LENGTH,
  EXCHANGE_FIELD_LABELS,
  exchangeErrors,
  exchangeParams,
  initialExchangeValues,
  type ExchangeExamField,
  type ExchangeValues,
} from '../lib/exchange-form';
import { CustomFieldInput } from './CustomFieldInput';
import { DayField } from '../../../components/DayField';

/** Exchange tab (SPEC.md section 2): the exam fields plus the account's custom fields. */
export function ExchangeTab({ study, accountId }: { study: Study; accountId: string }) {
  const fields = useQuery(studyCustomFieldsQuery(accountId));
  if (fields.isError) return <UnexpectedErrorAlert />;
  if (!fields.data) return <Loading />;
  // A saved edit refetches the study with a new `updated`: the form starts again from it.
  return <ExchangeForm key={`${study.uuid}:${study.updated}`} study={study} fields={fields.data} />;
}

const TEXT_FIELDS: ExchangeExamField[] = [
  'patient_name',
  'accession_number',
  'study_description',
  'referring_physician',
];

function ExchangeForm({ study, fields }: { study: Study; fields: CustomField[] }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const save = useStudySet();
  const [values, setValues] = useState<ExchangeValues>(() => initialExchangeValues(study, fields));
  const [submitted, setSubmitted] = useState(false);
  const editable = study.permissions.study_edit === 1;
  const errors = exchangeErrors(values, fields, localTodayIso());
  const invalid = Object.keys(errors).length > 0;
  const shown = (key: string) => (submitted ? errors[key] : undefined);

  const setExam = (field: ExchangeExamField, value: string) =>
    setValues((v) => ({ ...v, exam: { ...v.exam, [field]: value } }));
  const setCustom = (uuid: string, value: string) =>
    setValues((v) => ({ ...v, custom: { ...v.custom, [uuid]: value } }));

  const submit = async () => {
    setSubmitted(true);
    if (invalid || save.isPending) return;
    try {
      await save.mutateAsync({ uuid: study.uuid, params: exchangeParams(study, values, fields) });
      enqueueSnackbar(t(MESSAGES.changesSaved), { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(
        errorCode(error) === 'LOCKED'
          ? t('The exam is being edited by someone else.')
          : t(MESSAGES.profileFailed),
        { variant: 'error' },
      );
    }
  };

  const textField = (field: ExchangeExamField) => (
    <TextField
      key={field}
      label={t(EXCHANGE_FIELD_LABELS[field])}
      value={values.exam[field]}
      disabled={!editable}
      error={Boolean(shown(field))}
      helperText={shown(field) ? t(shown(field)!) : undefined}
      fullWidth
      slotProps={{ htmlInput: { maxLength: EXAM_FIELD_MAX_LENGTH } }}
      onChange={(e) => setExam(field, e.target.value)}
    />
  );
  const dateField = (field: 'patient_birth_date' | 'study_date') => (
    <DayField
      key={field}
      label={t(EXCHANGE_FIELD_LABELS[field])}
      value={values.exam[field]}
      disabled={!editable}
      error={Boolean(shown(field))}
      helperText={shown(field) ? t(shown(field)!) : undefined}
      fullWidth
      onChange={(day) => setExam(field, day)}
    />
  );

  return (
    <Box
      component="form"
      noValidate
      aria-label={t('Exchange')}
      sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}
      onSubmit={(e) => {
        e.preventDefault();
        void submit();
      }}
    >
      {!editable && (
        <Alert severity="info">{t('You can read these fields but not change them for this exam.')}</Alert>
      )}
      {submitted && invalid && <Alert severity="error">{t(MESSAGES.formMandatory)}</Alert>}
      <Typography variant="subtitle2" component="h3">
        {t('Exam fields')}
      </Typography>
      {textField('patient_name')}
      <TextField
        label={t('MRN')}
        value={study.patientid}
        disabled
        fullWidth
        helperText={t('Change it in Edit MRN')}
      />
      {dateField('patient_birth_date')}
      <TextField
        select
        label={t(EXCHANGE_FIELD_LABELS.patient_sex)}
        value={values.exam.patient_sex}
        disabled={!editable}
        fullWidth
        onChange={(e) => setExam('patient_sex', e.target.value)}
      >
        <MenuItem value="">
          <em>{t('None')}</em>
        </MenuItem>
        {PATIENT_SEXES.map((sex) => (
          <MenuItem key={sex} value={sex}>
            {sex}
          </MenuItem>
        ))}
      </TextField>
      {TEXT_FIELDS.slice(1).map(textField)}
      {dateField('study_date')}
      {fields.length > 0 && (
        <Typography variant="subtitle2" component="h3">
          {t('Custom fields')}
        </Typography>
      )}
      {fields.map((field) => (
        <CustomFieldInput
          key={field.uuid}
          field={field}
          value={values.custom[field.uuid] ?? ''}
          error={shown(field.uuid)}
          disabled={!editable}
          onChange={(value) => setCustom(field.uuid, value)}
        />
      ))}
      {editable && (
        <Box>
          <Button type="submit" variant="contained" disabled={save.isPending}>
            {t('Save')}
          </Button>
        </Box>
      )}
    </Box>
  );
}
