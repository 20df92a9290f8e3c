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
  Stack,
  TextField,
} from '@mui/material';
import type { Destination } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useAddDestination, useSetDestination } from '../api/destinations';
import { ProfileSelect } from '../../privacy';
import { EMPTY_FORM, formOf, formParams, formProblems, type DestinationForm } from '../lib/destination-form';

interface Props {
  accountId: string;
  /** The destination being edited; undefined: a new one. */
  editing: Destination | undefined;
  onClose: () => void;
}

/** Add or edit one destination; the server's refusal (e.g. an AE title already registered) shows on its field. */
export function DestinationDialog({ accountId, editing, onClose }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState<DestinationForm>(editing ? formOf(editing) : EMPTY_FORM);
  const [touched, setTouched] = useState(false);
  const add = useAddDestination();
  const set = useSetDestination();
  const mutation = editing ? set : add;
  const problems = formProblems(form);
  const refused = errorBody(mutation.error);
  const serverProblem =
    refused && typeof refused.error_subtype === 'string'
      ? {
          field: refused.error_subtype,
          text: `${refused.error_type}: ${typeof refused.error_data === 'string' ? refused.error_data : ''}`,
        }
      : undefined;

  const submit = () => {
    setTouched(true);
    if (Object.keys(problems).length) return;
    const params = formParams(form);
    mutation.mutate(editing ? { uuid: editing.uuid, ...params } : { account_id: accountId, ...params }, {
      onSuccess: onClose,
    });
  };

  const text = (
    field: 'name' | 'aetitle' | 'address' | 'port' | 'c_echo_interval' | 'storage_commitment_timeout',
    label: string,
  ) => {
    const problem = touched ? problems[field] : undefined;
    const fromServer = serverProblem?.field === field ? serverProblem.text : undefined;
    return (
      <TextField
        label={t(label)}
        value={form[field]}
        onChange={(e) => setForm({ ...form, [field]: e.target.value })}
        error={Boolean(problem ?? fromServer)}
        helperText={problem ? t(problem) : fromServer}
        required={field !== 'c_echo_interval' && field !== 'storage_commitment_timeout'}
        fullWidth
      />
    );
  };
  const check = (
    field: 'can_search' | 'can_search_mwl' | 'can_push' | 'storage_commitment' | 'tls',
    label: string,
  ) => (
    <FormControlLabel
      control={
        <Checkbox checked={form[field]} onChange={(e) => setForm({ ...form, [field]: e.target.checked })} />
      }
      label={t(label)}
    />
  );

  /** A PEM text field: a few monospace lines, the server's refusal (or the translated `hint`) under it. */
  const pem = (field: 'tls_ca' | 'tls_cert' | 'tls_key', label: string, hint?: string) => {
    const fromServer = serverProblem?.field === field ? serverProblem.text : undefined;
    return (
      <TextField
        label={t(label)}
        value={form[field]}
        onChange={(e) => setForm({ ...form, [field]: e.target.value })}
        error={Boolean(fromServer)}
        helperText={fromServer ?? hint}
        multiline
        minRows={2}
        maxRows={6}
        fullWidth
        slotProps={{ htmlInput: { spellCheck: false, style: { fontFamily: 'monospace', fontSize: 12 } } }}
      />
    );
  };

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{editing ? t('Edit destination') : t('Add destination')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          {text('name', 'Name')}
          {text('aetitle', 'AE title')}
          {text('address', 'Address')}
          {text('port', 'Port')}
          {text('c_echo_interval', 'Automatic C-ECHO every (seconds)')}
          <Stack direction="row" sx={{ flexWrap: 'wrap' }}>
            {check('can_search', 'Search (C-FIND)')}
            {check('can_search_mwl', 'Search modality worklist')}
            {check('can_push', 'Push (C-STORE)')}
          </Stack>
          {/* In a row as the checkboxes above, so it lines up with them (a Stack child loses the label's offset). */}
          <Stack direction="row">
            {check('storage_commitment', 'Ask for storage commitment after a push')}
          </Stack>
          {form.storage_commitment &&
            text('storage_commitment_timeout', 'Wait for the commitment report (seconds, empty: default)')}
          {form.can_push && (
            <ProfileSelect
              accountId={accountId}
              value={form.anonymization_id}
              onChange={(uuid) => setForm({ ...form, anonymization_id: uuid })}
              label={t('De-identify pushes with')}
              error={serverProblem?.field === 'anonymization_id'}
              helperText={
                serverProblem?.field === 'anonymization_id'
                  ? serverProblem.text
                  : form.anonymization_id
                    ? t(
                        'The PACS receives de-identified copies; files that may show burned-in text are not sent unless the profile keeps them.',
                      )
                    : undefined
              }
            />
          )}
          {check('tls', 'Use TLS (DICOM over TLS 1.2 or later)')}
          {form.tls && (
            <>
              {pem('tls_ca', 'CA certificates (PEM; empty: the system’s trusted roots)')}
              {pem('tls_cert', 'Client certificate (PEM, if the PACS asks for one)')}
              {pem(
                'tls_key',
                'Client private key (PEM, unencrypted)',
                editing?.tls_key_set ? t('A private key is stored; leave empty to keep it') : undefined,
              )}
            </>
          )}
          {mutation.isError && !serverProblem && (
            <Alert severity="error">{t('The destination was not saved')}</Alert>
          )}
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
