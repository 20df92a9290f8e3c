import { useState, type FormEvent } from 'react';
import { Alert, Box, MenuItem, TextField } from '@mui/material';
import {
  isIsoDate,
  MESSAGES,
  PATIENT_FORM_REQUIRED,
  type PatientFormField,
  type PatientFormValues,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { DayField } from '../../../components/DayField';

interface Props {
  values: PatientFormValues;
  /** Field → message from the shared schema (patientFormErrors). */
  errors: Partial<Record<PatientFormField, string>>;
  onChange: (values: PatientFormValues) => void;
  /** Set once the user tried to go on with an invalid form: every error shows, and the banner. */
  attempted: boolean;
  onAttempt: () => void;
}

const LABELS: Record<PatientFormField, string> = {
  firstName: 'First name',
  middleName: 'Middle name',
  lastName: 'Last name',
  patientDOB: 'Date of Birth',
  patientMRN: 'MRN',
  patientGender: 'Sex',
  studyDate: 'Study Date',
  studyTime: 'Study Time',
  studyDescription: 'Study Description',
};

/**
 * The patient and exam form of the non-DICOM upload (SPEC.md section 5). A field shows its error once
 * it was left or after a submit attempt; mandatory fields are marked *. Changing the date of birth
 * to after the study date moves the study date up to it.
 */
export function PatientForm({ values, errors, onChange, attempted, onAttempt }: Props) {
  const { t } = useTranslation();
  const [touched, setTouched] = useState<Partial<Record<PatientFormField, boolean>>>({});
  const hasErrors = Object.keys(errors).length > 0;

  const set = (field: PatientFormField, value: string) => {
    const next = { ...values, [field]: value };
    if (field === 'patientDOB' && isIsoDate(value) && isIsoDate(next.studyDate) && next.studyDate < value) {
      next.studyDate = value;
    }
    onChange(next);
  };
  const props = (field: PatientFormField) => {
    const shown = (attempted || touched[field]) && errors[field];
    return {
      id: `upload-${field}`,
      name: field,
      label: t(LABELS[field]),
      required: PATIENT_FORM_REQUIRED.includes(field),
      value: values[field],
      error: Boolean(shown),
      helperText: shown ? t(errors[field]!) : ' ',
      onChange: (e: { target: { value: string } }) => set(field, e.target.value),
      onBlur: () => setTouched((s) => ({ ...s, [field]: true })),
    };
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    onAttempt();
  };

  return (
    <Box component="form" noValidate onSubmit={submit} aria-label={t('Patient details')}>
      {attempted && hasErrors && (
        <Alert severity="error" sx={{ mb: 2 }}>
          {t(MESSAGES.formMandatory)}
        </Alert>
      )}
      <Box sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', md: '1fr 1fr 1fr' }, gap: 2 }}>
        <TextField {...props('firstName')} />
        <TextField {...props('middleName')} />
        <TextField {...props('lastName')} />
        <DayField {...props('patientDOB')} onChange={(day) => set('patientDOB', day)} />
        <TextField {...props('patientMRN')} />
        <TextField {...props('patientGender')} select>
          <MenuItem value="F">{t('Female')}</MenuItem>
          <MenuItem value="M">{t('Male')}</MenuItem>
          <MenuItem value="O">{t('Other')}</MenuItem>
        </TextField>
        <DayField {...props('studyDate')} onChange={(day) => set('studyDate', day)} />
        <TextField {...props('studyTime')} placeholder="HH:MM" slotProps={{ inputLabel: { shrink: true } }} />
        <TextField {...props('studyDescription')} />
      </Box>
      {/* Enter in a field submits: that is the submit attempt that shows every message. */}
      <button type="submit" hidden aria-hidden tabIndex={-1} />
    </Box>
  );
}
