import { useState } from 'react';
import {
  Alert,
  Button,
  LinearProgress,
  List,
  ListItem,
  ListItemText,
  Stack,
  Typography,
} from '@mui/material';
import {
  emptyPatientForm,
  localTodayIso,
  MESSAGES,
  patientFormErrors,
  type PatientFormField,
  type PatientFormValues,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes } from '../../../lib/format';
import { errorBody } from '../../../lib/api-error';
import { documentName, PatientForm } from '../../upload';
import { linkErrorCode } from '../api/link-public';
import { linkWrap } from '../api/link-wrap';
import { linkErrorMessage } from '../lib/link-messages';

interface Props {
  documents: readonly File[];
  grant: () => Promise<string>;
}

type Outcome = { kind: 'idle' | 'running' | 'done' } | { kind: 'failed'; code: string; file: string | null };

/** The form fields a refusal names with their messages (the server checks with the same schema). */
function fieldErrors(error: unknown): Partial<Record<PatientFormField, string>> | null {
  const data = errorBody(error)?.error_data;
  if (!data || typeof data !== 'object' || Array.isArray(data)) return null;
  return data;
}

/**
 * The documents (PDF, JPEG, PNG, MP4) of a link pick: the outside party fills the wizard's patient
 * and exam form, with its messages, and all documents go in one call that makes one new exam in the
 * link's group. A refusal stores nothing, so the same documents can be sent again once corrected.
 */
export function LinkDocumentsForm({ documents, grant }: Props) {
  const { t } = useTranslation();
  const [form, setForm] = useState<PatientFormValues>(emptyPatientForm);
  const [attempted, setAttempted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<PatientFormField, string>>>({});
  const [outcome, setOutcome] = useState<Outcome>({ kind: 'idle' });
  const checked = patientFormErrors(form, localTodayIso());
  const errors = checked.ok ? serverErrors : { ...serverErrors, ...checked.errors };

  const send = async () => {
    if (!checked.ok) {
      setAttempted(true);
      return;
    }
    setOutcome({ kind: 'running' });
    try {
      await linkWrap(await grant(), form, documents);
      setOutcome({ kind: 'done' });
    } catch (error) {
      const code = linkErrorCode(error);
      const fields = code === 'MISSING_FIELDS' || code === 'INVALID_FIELD' ? fieldErrors(error) : null;
      if (fields) {
        setServerErrors(fields);
        setAttempted(true);
        setOutcome({ kind: 'idle' });
        return;
      }
      // The server names a refused file as it was sent; the list shows it by its path in the pick.
      const sent = errorBody(error)?.error_subtype;
      const refused = documents.find((d) => documentName(d) === sent);
      setOutcome({ kind: 'failed', code, file: refused?.name ?? null });
    }
  };

  const running = outcome.kind === 'running';
  return (
    <Stack spacing={2} component="section" aria-label={t('Documents')}>
      <Typography variant="h6" component="h2">
        {t('Documents')}
      </Typography>
      <Typography>
        {t(
          'These {{count}} documents ({{size}}) are sent as one exam: please enter its patient and exam details.',
          {
            count: documents.length,
            size: formatMegabytes(documents.reduce((n, f) => n + f.size, 0)),
          },
        )}
      </Typography>
      <List dense aria-label={t('Documents to upload')}>
        {documents.map((file, i) => (
          <ListItem key={`${i}:${file.name}`} disableGutters>
            <ListItemText primary={file.name} secondary={formatMegabytes(file.size)} />
          </ListItem>
        ))}
      </List>
      <PatientForm
        values={form}
        errors={errors}
        onChange={(values) => {
          setForm(values);
          setServerErrors({});
        }}
        attempted={attempted}
        onAttempt={() => void send()}
      />
      <Alert severity="warning">{t(MESSAGES.uploadMrnNote)}</Alert>
      <Button
        variant="contained"
        sx={{ alignSelf: 'flex-start' }}
        disabled={running || outcome.kind === 'done'}
        loading={running}
        // The field being left would show its message on mousedown, and a message that wraps moves
        // this button down before mouseup: the click would be lost. Keeping the focus where it is
        // until the click lands avoids that; the click itself then shows every message.
        onMouseDown={(event) => event.preventDefault()}
        onClick={() => void send()}
      >
        {t('Upload documents')}
      </Button>
      {running && <LinearProgress aria-label={t('Uploading documents')} />}
      {outcome.kind === 'done' && (
        <Alert severity="success" role="status">
          {t(MESSAGES.linkDocumentsDone)}
        </Alert>
      )}
      {outcome.kind === 'failed' && (
        <Alert severity="error">
          {t(linkErrorMessage(outcome.code))}
          {outcome.file ? ` (${outcome.file})` : ''}
        </Alert>
      )}
    </Stack>
  );
}
