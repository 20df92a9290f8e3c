import { useEffect, useState } from 'react';
import {
  Alert,
  Button,
  List,
  ListItem,
  ListItemText,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import type { Nomination, PromoteTarget, Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { errorCode } from '../../../../lib/api-error';
import { cutName } from '../../../../lib/format';
import { ConfirmDialog } from '../../../../components/ConfirmDialog';
import { Loading } from '../../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../../components/UnexpectedErrorAlert';
import { useCancelNomination, useNominate, useNomination } from '../../api/nomination';
import {
  FORM_NOT_CONFIGURED,
  MANDATORY_MESSAGE,
  answersToSend,
  emptyAnswers,
  initialGatekeeper,
  missingAnswers,
} from '../../lib/nomination-form';
import { timeAgo } from '../../lib/time-ago';
import { NominationDetailsDialog } from './NominationDetailsDialog';
import { NominationForm } from './NominationForm';
import { NominationStatusPanel } from './NominationStatusPanel';

const STATUS_TEXT: Record<Nomination['status'], string> = {
  IS_NOMINATED: 'Nominated',
  PROCESSING: 'Being processed',
  EVALUATING: 'Being sent to PACS',
  NOMINATION_SUCCESS: 'Sent to PACS',
  REJECTED: 'Rejected',
  NOT_NOMINATED: 'Cancelled',
};

/** Why a nomination was refused, in the user's words. */
function nominateError(code: string): string {
  switch (code) {
    case 'MISSING_FIELDS':
      return MANDATORY_MESSAGE;
    case 'ALREADY_NOMINATED':
      return 'This exam is already nominated to that gatekeeper group.';
    case 'NOT_PERMITTED':
      return 'You are not allowed to nominate this exam to that gatekeeper group.';
    default:
      return 'Nomination form submission failed';
  }
}

/**
 * Nominate to PACS (SPEC.md section 2): the gatekeeper selector and its form while the exam is not
 * nominated; then the status panel with cancel and details; and every earlier nomination.
 */
export function NominatePanel({ study, targets }: { study: Study; targets: readonly PromoteTarget[] }) {
  const { t } = useTranslation();
  const status = useNomination(study.uuid);
  const nominate = useNominate(study.uuid);
  const cancel = useCancelNomination(study.uuid);
  const [gatekeeperId, setGatekeeperId] = useState(() => initialGatekeeper(targets));
  const fieldsOfTarget = (uuid: string) => targets.find((g) => g.uuid === uuid)?.customFields ?? [];
  const [answers, setAnswers] = useState(() => emptyAnswers(fieldsOfTarget(gatekeeperId)));
  const [tried, setTried] = useState(false);
  const [details, setDetails] = useState<Nomination | null>(null);
  const [again, setAgain] = useState(false);
  const [confirmCancel, setConfirmCancel] = useState(false);

  const target = targets.find((g) => g.uuid === gatekeeperId);
  const fields = target?.customFields ?? null;
  const unconfigured = !!target && target.customFields === null;
  useEffect(() => {
    if (unconfigured) console.warn('GateKeeper configuration not found!');
  }, [unconfigured]);
  const chooseGatekeeper = (uuid: string) => {
    setGatekeeperId(uuid);
    setAnswers(emptyAnswers(fieldsOfTarget(uuid)));
    setTried(false);
  };

  if (status.isPending) return <Loading />;
  if (status.isError) return <UnexpectedErrorAlert />;
  const current = status.data.nomination;
  const showForm = !current || current.status === 'NOT_NOMINATED' || again;
  const missing = tried && fields ? missingAnswers(fields, answers) : [];
  const fieldsOf = (n: Nomination) => targets.find((g) => g.uuid === n.gatekeeper_id)?.customFields;

  const submit = () => {
    if (!fields) return;
    setTried(true);
    if (missingAnswers(fields, answers).length > 0) return;
    nominate.mutate(
      { gatekeeperId, answers: answersToSend(answers) },
      {
        onSuccess: () => {
          setAgain(false);
          setTried(false);
        },
      },
    );
  };

  return (
    <Stack spacing={2} component="section" aria-label={t('Nominate to PACS')}>
      {current && current.status !== 'NOT_NOMINATED' && (
        <NominationStatusPanel
          nomination={current}
          cancelling={cancel.isPending}
          onCancel={() => setConfirmCancel(true)}
          onDetails={() => setDetails(current)}
        />
      )}
      {cancel.isError && (
        <Alert severity="error">{t('Failed to cancel the nomination, please try again!')}</Alert>
      )}
      {/* Until the next nomination: the form is back at once, so the message must not wait for it to go. */}
      {cancel.isSuccess && !nominate.isSuccess && (
        <Alert severity="success" role="status">
          {t('The nomination was cancelled.')}
        </Alert>
      )}
      <ConfirmDialog
        open={confirmCancel}
        title={t('Cancel the nomination to {{gatekeeper}}?', { gatekeeper: current?.gatekeeper_name ?? '' })}
        text={t('The gatekeeper will no longer see this exam in Nominations.')}
        confirmLabel={t('Cancel nomination')}
        dismissLabel={t('Keep the nomination')}
        busy={cancel.isPending}
        onClose={() => setConfirmCancel(false)}
        onConfirm={() => {
          setConfirmCancel(false);
          nominate.reset();
          cancel.mutate();
        }}
      />
      {/* The rejecting gatekeeper keeps its copy, so only another gatekeeper can take the exam again. */}
      {current?.status === 'REJECTED' && !again && targets.some((g) => g.uuid !== current.gatekeeper_id) && (
        <Button sx={{ alignSelf: 'flex-start' }} onClick={() => setAgain(true)}>
          {t('Nominate again')}
        </Button>
      )}
      {showForm && (
        <Stack spacing={2}>
          <Typography variant="subtitle1" component="h3">
            {t('Nominate to PACS')}
          </Typography>
          <TextField
            select
            size="small"
            label={t('Gatekeeper group')}
            required
            value={gatekeeperId}
            onChange={(e) => chooseGatekeeper(e.target.value)}
          >
            {targets.map((g) => (
              <MenuItem key={g.uuid} value={g.uuid} title={g.name}>
                {cutName(g.name)}
              </MenuItem>
            ))}
          </TextField>
          {target && fields === null && <Alert severity="warning">{t(FORM_NOT_CONFIGURED)}</Alert>}
          {fields && (
            <>
              <NominationForm
                fields={fields}
                answers={answers}
                missing={missing}
                disabled={nominate.isPending}
                onChange={(name, value) => setAnswers((prev) => ({ ...prev, [name]: value }))}
              />
              {missing.length > 0 && <Alert severity="error">{t(MANDATORY_MESSAGE)}</Alert>}
              {nominate.isError && (
                <Alert severity="error">{t(nominateError(errorCode(nominate.error)))}</Alert>
              )}
              <Stack direction="row" spacing={1}>
                <Button variant="contained" disabled={nominate.isPending} onClick={submit}>
                  {t('Nominate')}
                </Button>
                {again && <Button onClick={() => setAgain(false)}>{t('Cancel')}</Button>}
              </Stack>
            </>
          )}
        </Stack>
      )}
      {status.data.history.length > 0 && (
        <section aria-label={t('Nomination history')}>
          <Typography variant="subtitle2" component="h3">
            {t('Nomination history')}
          </Typography>
          <List dense disablePadding>
            {status.data.history.map((n) => (
              <ListItem
                key={n.uuid}
                disableGutters
                secondaryAction={
                  <Button size="small" onClick={() => setDetails(n)}>
                    {t('Details')}
                  </Button>
                }
              >
                <ListItemText
                  primary={`${t(STATUS_TEXT[n.status])} — ${n.gatekeeper_name}`}
                  secondary={timeAgo(n.submitted_at)}
                />
              </ListItem>
            ))}
          </List>
        </section>
      )}
      <NominationDetailsDialog
        nomination={details}
        fields={details ? fieldsOf(details) : null}
        onClose={() => setDetails(null)}
      />
    </Stack>
  );
}
