import { Alert } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { Loading } from '../../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../../session/inbox-context';
import { useGroupWorkflow } from '../../api/group-workflow';
import { useNomination } from '../../api/nomination';
import { NominationNotice, isNoticeState } from './NominationNotice';
import { ProcessWizard } from './ProcessWizard';

/**
 * Process (gatekeeper groups): in Nominations, the process wizard (or, once sent and until its
 * processing is done, that it is being processed); in Queued, Rejected, Completed and Failed, the
 * notification panel of what became of the exam.
 */
export function ProcessTab({ study, state, accountId }: { study: Study; state: string; accountId: string }) {
  const { t } = useTranslation();
  const { groups } = useInbox();
  const group = groups.find((g) => g.namespaceId === study.phi_namespace && g.type === 'GATEKEEPER');
  const workflow = useGroupWorkflow(group?.uuid);
  const nomination = useNomination(study.uuid);
  if (isNoticeState(state)) return <NominationNotice study={study} state={state} />;
  // Sent by a gatekeeper (here or elsewhere) and not finished yet, e.g. cut by a server restart
  // until the restarted server finishes it: processing again would be refused.
  if (nomination.data?.nomination?.status === 'PROCESSING')
    return (
      <Alert severity="info" data-state="Processing" aria-label={t('Exam state')}>
        {t('This exam is being processed: its attributes are being written and its push queued.')}
      </Alert>
    );
  if (!group)
    return <Alert severity="info">{t('Open this exam in its gatekeeper group to process it.')}</Alert>;
  if (workflow.isPending) return <Loading />;
  if (workflow.isError) return <UnexpectedErrorAlert />;
  const config = workflow.data.type === 'GATEKEEPER' ? workflow.data.gatekeeper_config : null;
  return <ProcessWizard study={study} groupUuid={group.uuid} accountId={accountId} config={config} />;
}
