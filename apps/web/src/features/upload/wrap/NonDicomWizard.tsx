import { useCallback, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Stack, Typography } from '@mui/material';
import {
  dicomPatientName,
  emptyPatientForm,
  localTodayIso,
  MESSAGES,
  patientFormErrors,
  type PatientFormValues,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes } from '../../../lib/format';
import { useUploadDestinations } from '../api/destinations';
import { useWrappingEnabled } from '../api/share-code-settings';
import { wrapFile } from '../api/wrap-file';
import { DestinationStep } from '../components/DestinationStep';
import { WizardStepper } from '../components/WizardStepper';
import { startWrapUpload } from '../upload-runtime';
import { PatientForm } from './PatientForm';
import { SelectFilesStep } from './SelectFilesStep';
import { wrapSender } from './wrap-sender';

/** The non-DICOM variant's steps (SPEC.md section 2). */
export const WRAP_STEPS = ['Destination', 'Select Exams', 'Patient details', 'Confirm'] as const;

export interface WrapWizardState {
  step: number;
  destination: string | null;
  files: File[];
  fileError: 'wrapFileTypes' | 'wrapFileTooLarge' | null;
  form: PatientFormValues;
  attempted: boolean;
}

export const initialWrapState: WrapWizardState = {
  step: 0,
  destination: null,
  files: [],
  fileError: null,
  form: emptyPatientForm,
  attempted: false,
};

/** Destination → Select Exams → Patient details → Confirm; files are wrapped into DICOM by the server. */
export function NonDicomWizard({ initial = initialWrapState }: { initial?: WrapWizardState }) {
  const { t } = useTranslation();
  const [state, setState] = useState(initial);
  const patch = (change: Partial<WrapWizardState>) => setState((s) => ({ ...s, ...change }));
  // A ZIP being read holds the wizard: leaving the step would stop the read and lose its documents.
  const [reading, setReading] = useState(false);
  const onReading = useCallback((value: boolean) => setReading(value), []);
  const destinations = useUploadDestinations();
  const destination = destinations?.find((g) => g.namespace_id === state.destination);
  const enabled = useWrappingEnabled(destination ? destination.namespace_id : null);
  const checked = patientFormErrors(state.form, localTodayIso());
  const errors = checked.ok ? {} : checked.errors;

  // Next is open only with what each step needs; the form must be valid and a file chosen.
  const canNext =
    !reading &&
    [
      destination !== undefined && enabled === true,
      state.files.length > 0,
      checked.ok && state.files.length > 0,
    ][state.step];

  const upload = () => {
    if (!destination || !checked.ok || state.files.length === 0) return;
    const form = state.form;
    startWrapUpload(
      { namespaceId: destination.namespace_id, destinationName: destination.name },
      {
        studyUid: `wrap:${Date.now()}`,
        patientName: dicomPatientName(checked.form),
        patientId: checked.form.patientMRN,
        description: checked.form.studyDescription,
      },
      state.files,
      wrapSender((file, studyUid, signal) =>
        wrapFile(destination.namespace_id, form, file, studyUid, signal),
      ),
    );
    setState(initialWrapState);
  };

  const content = () => {
    switch (state.step) {
      case 0:
        return destinations === null ? (
          <CircularProgress aria-label={t('Loading')} />
        ) : (
          <Stack spacing={2}>
            <DestinationStep
              destinations={destinations}
              value={state.destination}
              onChange={(namespaceId) => patch({ destination: namespaceId })}
            />
            {enabled === false && (
              <Alert severity="info">{t('This group does not accept PDF, image or video files.')}</Alert>
            )}
          </Stack>
        );
      case 1:
        return (
          <SelectFilesStep
            files={state.files}
            error={state.fileError}
            onAdded={(files, fileError) =>
              setState((s) => ({ ...s, files: [...s.files, ...files], fileError }))
            }
            onRemove={(index) =>
              setState((s) => ({ ...s, files: s.files.filter((_, i) => i !== index), fileError: null }))
            }
            onReading={onReading}
          />
        );
      case 2:
        return (
          <PatientForm
            values={state.form}
            errors={errors}
            onChange={(form) => patch({ form })}
            attempted={state.attempted}
            onAttempt={() => {
              if (checked.ok) patch({ step: 3 });
              else patch({ attempted: true });
            }}
          />
        );
      case 3:
        return (
          <Stack spacing={2}>
            <Typography>
              {t('{{files}} files ({{size}}) will be uploaded to {{destination}} as one exam.', {
                files: state.files.length,
                size: formatMegabytes(state.files.reduce((n, f) => n + f.size, 0)),
                destination: destination?.name ?? '',
              })}
            </Typography>
            {checked.ok && (
              <Typography>
                {`${checked.form.lastName}, ${checked.form.firstName}`} ({t('MRN')} {checked.form.patientMRN})
              </Typography>
            )}
            <Alert severity="warning">{t(MESSAGES.uploadMrnNote)}</Alert>
          </Stack>
        );
      default:
        return <Alert severity="error">{t(MESSAGES.invalidStep)}</Alert>;
    }
  };

  return (
    <Box>
      <WizardStepper
        active={state.step}
        steps={WRAP_STEPS}
        onOpen={(step) => !reading && step < state.step && patch({ step })}
      />
      {content()}
      <Stack direction="row" spacing={1} sx={{ mt: 3 }}>
        {state.step > 0 && (
          <Button disabled={reading} onClick={() => patch({ step: state.step - 1 })}>
            {t('Back')}
          </Button>
        )}
        {state.step < WRAP_STEPS.length - 1 ? (
          <Button variant="contained" disabled={!canNext} onClick={() => patch({ step: state.step + 1 })}>
            {t('Next')}
          </Button>
        ) : (
          <Button
            variant="contained"
            disabled={!checked.ok || !checked.form.patientMRN || state.files.length === 0 || !destination}
            onClick={upload}
          >
            {t('Upload')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
