import { useState } from 'react';
import { Box, Button, TextField, Typography } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { errorCode } from '../../../lib/api-error';
import { useEditMrn } from '../api/edit-mrn';
import { canSubmitMrn } from '../lib/exam-actions';

/** Edit MRN tab: lock, set patientid, unlock; the change shows in the exam history. */
export function EditMrnTab({ study }: { study: Study }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [mrn, setMrn] = useState(study.patientid);
  const edit = useEditMrn();
  // mutateAsync: the snackbar still shows if the panel is closed while the edit runs.
  const submit = async () => {
    try {
      await edit.mutateAsync({ uuid: study.uuid, mrn });
      enqueueSnackbar(t('MRN updated successfully'), { variant: 'success' });
    } catch (error) {
      enqueueSnackbar(
        errorCode(error) === 'LOCKED'
          ? t('The exam is being edited by someone else.')
          : t('Failed to update the MRN'),
        { variant: 'error' },
      );
    }
  };
  return (
    <Box
      component="form"
      sx={{ display: 'flex', flexDirection: 'column', gap: 2, alignItems: 'flex-start' }}
      onSubmit={(e) => {
        e.preventDefault();
        if (canSubmitMrn(mrn, study.patientid, edit.isPending)) void submit();
      }}
    >
      <Typography variant="body2" color="text.secondary">
        {t('Current MRN: {{mrn}}', { mrn: study.patientid || '—' })}
      </Typography>
      <TextField
        label={t('New MRN')}
        value={mrn}
        fullWidth
        slotProps={{ htmlInput: { maxLength: 64 } }}
        onChange={(e) => setMrn(e.target.value)}
      />
      <Button
        type="submit"
        variant="contained"
        disabled={!canSubmitMrn(mrn, study.patientid, edit.isPending)}
      >
        {t('Update MRN')}
      </Button>
    </Box>
  );
}
