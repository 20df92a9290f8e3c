import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  Stack,
  TextField,
} from '@mui/material';
import type { AdminGroup, GroupType } from '@imaging-inbox/contract';
import { GROUP_NAME_MAX_LENGTH, GROUP_TYPES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useAddGroup, useRenameGroup } from '../api/groups';

export const GROUP_TYPE_LABELS: Record<GroupType, string> = {
  CLOUD: 'Cloud',
  GATEKEEPER: 'Gatekeeper',
  LIBRARY: 'Library',
};

interface Props {
  accountId: string;
  /** The group being renamed; undefined: a new one. */
  editing: AdminGroup | undefined;
  onClose: () => void;
}

/** Add a group (name and type) or rename one; a taken name shows on the field. */
export function GroupDialog({ accountId, editing, onClose }: Props) {
  const { t } = useTranslation();
  const add = useAddGroup();
  const rename = useRenameGroup();
  const mutation = editing ? rename : add;
  const [name, setName] = useState(editing?.name ?? '');
  const [type, setType] = useState<GroupType>('CLOUD');
  const [touched, setTouched] = useState(false);
  const problem = !name.trim()
    ? 'Please enter a name.'
    : name.trim().length > GROUP_NAME_MAX_LENGTH
      ? 'The name is too long.'
      : null;
  const refused = errorBody(mutation.error);
  const taken = refused?.error_subtype === 'name' ? 'Another group of the account has this name.' : null;

  const submit = () => {
    setTouched(true);
    if (problem) return;
    const done = { onSuccess: onClose };
    if (editing) rename.mutate({ uuid: editing.uuid, name: name.trim() }, done);
    else add.mutate({ account_id: accountId, name: name.trim(), type }, done);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="xs">
      <DialogTitle>{editing ? t('Rename group') : t('Add group')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label={t('Name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={Boolean((touched && problem) || taken)}
            helperText={touched && problem ? t(problem) : taken ? t(taken) : undefined}
            required
            fullWidth
            autoFocus
          />
          {!editing && (
            <FormControl>
              <FormLabel id="group-type-label">{t('Type')}</FormLabel>
              <RadioGroup
                row
                aria-labelledby="group-type-label"
                value={type}
                onChange={(e) => setType(e.target.value as GroupType)}
              >
                {GROUP_TYPES.map((g) => (
                  <FormControlLabel key={g} value={g} control={<Radio />} label={t(GROUP_TYPE_LABELS[g])} />
                ))}
              </RadioGroup>
            </FormControl>
          )}
          {mutation.isError && !taken && <Alert severity="error">{t('The group was not saved')}</Alert>}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('Cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={mutation.isPending}>
          {t('Save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
