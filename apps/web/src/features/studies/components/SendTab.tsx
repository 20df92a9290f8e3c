import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  AlertTitle,
  Autocomplete,
  Box,
  Button,
  FormControl,
  FormControlLabel,
  FormLabel,
  Radio,
  RadioGroup,
  TextField,
  Typography,
} from '@mui/material';
import {
  MESSAGES,
  type Connection,
  type SendMethod,
  type ShareCodeAnswer,
  type Study,
  MAX_SHARE_MESSAGE,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { connectionsQuery, lookupShareCode, useCancelSends, useSendStudies } from '../api/study-send';
import { shareMessage } from '../lib/exam-actions';
import {
  canSubmitSend,
  parseEmails,
  sendMethods,
  sendResult,
  type SendRecipient,
  type SendResult,
} from '../lib/send';

const METHOD_LABELS: Record<SendMethod, string> = {
  connections: 'Connections',
  emails: 'E-mail',
  sharecode: 'Share code',
};

/** The share-code box: a code counts as a recipient once the server says whom it reaches. */
function ShareCodeField({
  target,
  onTarget,
}: {
  target: ShareCodeAnswer | null;
  onTarget: (target: ShareCodeAnswer | null) => void;
}) {
  const { t } = useTranslation();
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const lookUp = async () => {
    const value = code.trim();
    if (!value) return;
    setBusy(true);
    setError(null);
    try {
      onTarget(await lookupShareCode(value));
    } catch {
      onTarget(null);
      setError(MESSAGES.shareCodeUnknown);
    } finally {
      setBusy(false);
    }
  };
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 1 }}>
      <Box sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}>
        <TextField
          label={t('Share code')}
          value={code}
          error={error !== null}
          helperText={error ? t(error) : undefined}
          onChange={(e) => {
            setCode(e.target.value);
            onTarget(null);
            setError(null);
          }}
          onKeyDown={(e) => {
            if (e.key === 'Enter') void lookUp();
          }}
          sx={{ flex: 1 }}
        />
        <Button variant="outlined" disabled={busy || !code.trim()} onClick={() => void lookUp()}>
          {t('Look up')}
        </Button>
      </Box>
      {target && (
        <Alert severity="info" aria-label={t('Share code recipient')}>
          <AlertTitle>
            {target.name} — {target.organization}
          </AlertTitle>
          {target.description}
        </Alert>
      )}
    </Box>
  );
}

/**
 * Send exams tab (SPEC "Send exams"): to connections, e-mail addresses or a share code, each shown
 * only when every selected study allows it; a message; now or in 3 minutes (cancellable here).
 */
export function SendTab({ studies }: { studies: Study[] }) {
  const { t } = useTranslation();
  const allowed = sendMethods(studies);
  const methods = (Object.keys(METHOD_LABELS) as SendMethod[]).filter((m) => allowed[m]);
  const first = studies[0];
  const [method, setMethod] = useState<SendMethod | undefined>(methods[0]);
  const [connections, setConnections] = useState<Connection[]>([]);
  const [emails, setEmails] = useState('');
  const [codeTarget, setCodeTarget] = useState<ShareCodeAnswer | null>(null);
  const [message, setMessage] = useState('');
  const [delayed, setDelayed] = useState(false);
  const [result, setResult] = useState<(SendResult & { sendIds: string[] }) | null>(null);
  const options = useQuery(connectionsQuery(first?.uuid ?? '', allowed.connections && first !== undefined));
  const send = useSendStudies();
  const cancel = useCancelSends();

  if (!first || !method) return <Alert severity="info">{t(MESSAGES.contentNotPermitted)}</Alert>;

  const parsed = parseEmails(emails);
  const recipients: SendRecipient[] =
    method === 'connections'
      ? connections.map((c) => ({ account_id: c.uuid }))
      : method === 'emails'
        ? parsed.valid.map((email) => ({ email }))
        : codeTarget?.share_code
          ? [{ share_code: codeTarget.share_code }]
          : [];

  const submit = async () => {
    setResult(null);
    try {
      const answers = await send.mutateAsync({
        uuids: studies.map((s) => s.uuid),
        recipients,
        message: shareMessage(message),
        delayed,
      });
      const outcome = sendResult(studies.length, answers, delayed);
      const sendIds = answers.flatMap((a) => (a.status === 'OK' && a.send_id ? [a.send_id] : []));
      setResult({ ...outcome, sendIds: delayed ? sendIds : [] });
      if (outcome.severity === 'success') {
        setConnections([]);
        setEmails('');
        setMessage('');
      }
    } catch {
      setResult({
        severity: 'error',
        text: MESSAGES.sendFailed,
        detail: MESSAGES.studySendFailed,
        sendIds: [],
      });
    }
  };

  const cancelDelayed = async (sendIds: string[]) => {
    const cancelled = await cancel.mutateAsync(sendIds).catch(() => 0);
    setResult(
      cancelled === sendIds.length
        ? { severity: 'success', text: MESSAGES.sendCancelled, sendIds: [] }
        : { severity: 'error', text: MESSAGES.sendCancelFailed, sendIds: [] },
    );
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {result && (
        <Alert
          severity={result.severity}
          role="alert"
          action={
            result.sendIds.length > 0 ? (
              <Button color="inherit" size="small" onClick={() => void cancelDelayed(result.sendIds)}>
                {t('Cancel send')}
              </Button>
            ) : undefined
          }
        >
          <AlertTitle>{t(result.text)}</AlertTitle>
          {result.detail && t(result.detail)}
        </Alert>
      )}
      {methods.length > 1 && (
        <FormControl>
          <FormLabel id="send-method">{t('Send to')}</FormLabel>
          <RadioGroup
            row
            aria-labelledby="send-method"
            value={method}
            onChange={(e) => setMethod(e.target.value as SendMethod)}
          >
            {methods.map((m) => (
              <FormControlLabel key={m} value={m} control={<Radio />} label={t(METHOD_LABELS[m])} />
            ))}
          </RadioGroup>
        </FormControl>
      )}
      {method === 'connections' && (
        <Autocomplete
          multiple
          options={options.data ?? []}
          loading={options.isPending}
          value={connections}
          onChange={(_e, value) => setConnections(value)}
          getOptionLabel={(c) => `${c.organization} — ${c.namespace_name}`}
          isOptionEqualToValue={(a, b) => a.uuid === b.uuid}
          noOptionsText={t('No connections')}
          renderInput={(params) => <TextField {...params} label={t('Connections')} />}
        />
      )}
      {method === 'emails' && (
        <TextField
          label={t('E-mail addresses')}
          value={emails}
          error={parsed.invalid.length > 0}
          helperText={
            parsed.invalid.length > 0
              ? `${t(MESSAGES.emailInvalid)}: ${parsed.invalid.join(', ')}`
              : t('Separate several addresses with commas.')
          }
          onChange={(e) => setEmails(e.target.value)}
        />
      )}
      {method === 'sharecode' && <ShareCodeField target={codeTarget} onTarget={setCodeTarget} />}
      <TextField
        label={t('Message')}
        multiline
        minRows={2}
        value={message}
        slotProps={{ htmlInput: { maxLength: MAX_SHARE_MESSAGE } }}
        onChange={(e) => setMessage(e.target.value)}
      />
      <FormControl>
        <FormLabel id="send-timing">{t('When')}</FormLabel>
        <RadioGroup
          row
          aria-labelledby="send-timing"
          value={delayed ? 'delayed' : 'now'}
          onChange={(e) => setDelayed(e.target.value === 'delayed')}
        >
          <FormControlLabel value="now" control={<Radio />} label={t('Send now')} />
          <FormControlLabel value="delayed" control={<Radio />} label={t('Send in 3 minutes')} />
        </RadioGroup>
      </FormControl>
      <Box>
        <Button
          variant="contained"
          disabled={
            !canSubmitSend(recipients, method === 'emails' ? parsed.invalid.length : 0, send.isPending)
          }
          onClick={() => void submit()}
        >
          {t('Send')}
        </Button>
      </Box>
      {studies.length > 1 && (
        <Typography variant="body2" color="text.secondary">
          {t('{{count}} exams selected', { count: studies.length })}
        </Typography>
      )}
    </Box>
  );
}
