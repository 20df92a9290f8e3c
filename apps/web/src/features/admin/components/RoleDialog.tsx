import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Permission, Role } from '@imaging-inbox/contract';
import { OTHER_PERMISSIONS, ROLE_NAME_MAX_LENGTH, STUDY_PERMISSIONS } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useAddRole, useSetRole } from '../api/roles';
import { permissionLabel } from '../lib/permission-label';

interface Props {
  accountId: string;
  editing: Role | undefined;
  onClose: () => void;
}

const SECTIONS: { title: string; permissions: readonly Permission[] }[] = [
  { title: 'Exams', permissions: STUDY_PERMISSIONS },
  { title: 'Account and administration', permissions: OTHER_PERMISSIONS },
];

function refusalText(error: unknown): string {
  const body = errorBody(error);
  if (body?.error_subtype === 'name') return 'Another role of the account has this name.';
  if (body?.error_subtype === 'own_role') return 'You cannot change a role you hold.';
  return 'The role was not saved';
}

/** Add or edit a role: its name and the permissions it grants. */
export function RoleDialog({ accountId, editing, onClose }: Props) {
  const { t } = useTranslation();
  const add = useAddRole();
  const set = useSetRole();
  const mutation = editing ? set : add;
  const [name, setName] = useState(editing?.name ?? '');
  const [granted, setGranted] = useState<Set<Permission>>(new Set(editing?.permissions ?? []));
  const [touched, setTouched] = useState(false);
  const problem = !name.trim()
    ? 'Please enter a name.'
    : name.trim().length > ROLE_NAME_MAX_LENGTH
      ? 'The name is too long.'
      : null;

  const toggle = (p: Permission) =>
    setGranted((current) => {
      const next = new Set(current);
      if (next.has(p)) next.delete(p);
      else next.add(p);
      return next;
    });
  const submit = () => {
    setTouched(true);
    if (problem) return;
    const permissions = [...granted];
    const done = { onSuccess: onClose };
    if (editing) set.mutate({ uuid: editing.uuid, name: name.trim(), permissions }, done);
    else add.mutate({ accountId, name: name.trim(), permissions }, done);
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{editing ? t('Edit role') : t('Add role')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <TextField
            label={t('Name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
            error={touched && Boolean(problem)}
            helperText={touched && problem ? t(problem) : undefined}
            required
            fullWidth
            autoFocus
          />
          {SECTIONS.map((section) => (
            <Box key={section.title} component="fieldset" sx={{ border: 0, p: 0, m: 0 }}>
              <Typography component="legend" variant="subtitle2" gutterBottom>
                {t(section.title)}
              </Typography>
              <FormGroup
                sx={{ display: 'grid', gridTemplateColumns: { xs: '1fr', sm: '1fr 1fr', md: '1fr 1fr 1fr' } }}
              >
                {section.permissions.map((p) => (
                  <FormControlLabel
                    key={p}
                    control={<Checkbox size="small" checked={granted.has(p)} onChange={() => toggle(p)} />}
                    label={t(permissionLabel(p))}
                  />
                ))}
              </FormGroup>
            </Box>
          ))}
          {mutation.isError && <Alert severity="error">{t(refusalText(mutation.error))}</Alert>}
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
