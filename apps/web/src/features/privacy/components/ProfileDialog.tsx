import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  TextField,
} from '@mui/material';
import {
  ANONYMIZATION_OPTIONS,
  type AnonymizationOption,
  type AnonymizationProfile,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { useAddProfile, useSetProfile } from '../api/anonymization';
import { OPTION_LABELS } from './option-labels';

/** Adds or edits a de-identification profile: its name, Annex E options and what may pass. */
export function ProfileDialog(props: {
  accountId: string;
  editing: AnonymizationProfile | undefined;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { editing } = props;
  const [name, setName] = useState(editing?.name ?? '');
  const [options, setOptions] = useState<Set<AnonymizationOption>>(new Set(editing?.options ?? []));
  const [keepBurnedIn, setKeepBurnedIn] = useState(editing?.keep_burned_in === 1);
  const [keepAttachments, setKeepAttachments] = useState(editing?.keep_attachments === 1);
  const add = useAddProfile();
  const set = useSetProfile();
  const saving = add.isPending || set.isPending;
  const failed = add.isError || set.isError;

  const toggle = (option: AnonymizationOption) =>
    setOptions((previous) => {
      const next = new Set(previous);
      if (next.has(option)) next.delete(option);
      else next.add(option);
      return next;
    });

  const save = () => {
    const fields = {
      name,
      options: JSON.stringify([...options]),
      keep_burned_in: keepBurnedIn ? 1 : 0,
      keep_attachments: keepAttachments ? 1 : 0,
    };
    const done = { onSuccess: props.onClose };
    if (editing) set.mutate({ uuid: editing.uuid, ...fields }, done);
    else add.mutate({ account_id: props.accountId, ...fields }, done);
  };

  return (
    <Dialog open onClose={props.onClose} maxWidth="sm" fullWidth>
      <DialogTitle>{editing ? t('Edit profile') : t('Add profile')}</DialogTitle>
      <DialogContent>
        <TextField
          label={t('Name')}
          value={name}
          onChange={(e) => setName(e.target.value)}
          fullWidth
          margin="normal"
          required
          slotProps={{ htmlInput: { maxLength: 100 } }}
        />
        <FormLabel component="legend" sx={{ mt: 2 }}>
          {t('Basic profile (PS3.15 Annex E), with these options')}
        </FormLabel>
        <FormGroup>
          {ANONYMIZATION_OPTIONS.map((option) => (
            <FormControlLabel
              key={option}
              control={<Checkbox checked={options.has(option)} onChange={() => toggle(option)} />}
              label={t(OPTION_LABELS[option])}
            />
          ))}
        </FormGroup>
        <FormLabel component="legend" sx={{ mt: 2 }}>
          {t('What may pass')}
        </FormLabel>
        <FormGroup>
          <FormControlLabel
            control={<Checkbox checked={keepBurnedIn} onChange={(e) => setKeepBurnedIn(e.target.checked)} />}
            label={t('Images that may have text burned in (ultrasound, screen captures)')}
          />
          <FormControlLabel
            control={
              <Checkbox checked={keepAttachments} onChange={(e) => setKeepAttachments(e.target.checked)} />
            }
            label={t('Reports and attachments')}
          />
        </FormGroup>
        {failed && <Alert severity="error">{t('The profile could not be saved.')}</Alert>}
      </DialogContent>
      <DialogActions>
        <Button onClick={props.onClose}>{t('Cancel')}</Button>
        <Button variant="contained" onClick={save} disabled={saving || !name.trim()}>
          {t('Save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
