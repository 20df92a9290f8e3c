import { Divider, Stack, Typography } from '@mui/material';
import type { Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useGroupWorkflow } from '../api/group-workflow';
import { NominatePanel } from './nominate/NominatePanel';
import { PushPanel } from './PushPanel';

/**
 * PACS (cloud groups): nominate the exam to one of the group's gatekeeper groups (study_share), and,
 * for holders of study_push, push it straight to a destination.
 */
export function PacsTab({ study, accountId }: { study: Study; accountId: string }) {
  const { t } = useTranslation();
  const { groups } = useInbox();
  const group = groups.find((g) => g.namespaceId === study.phi_namespace && g.type === 'CLOUD');
  const canNominate = !!group && study.permissions.study_share === 1;
  const workflow = useGroupWorkflow(canNominate ? group.uuid : undefined);
  const targets = workflow.data?.type === 'CLOUD' ? workflow.data.promote_targets : [];
  const canPush = study.permissions.study_push === 1;

  return (
    <Stack spacing={2} sx={{ p: 2 }}>
      {canNominate && workflow.isPending && <Loading />}
      {canNominate && workflow.isError && <UnexpectedErrorAlert />}
      {targets.length > 0 && <NominatePanel study={study} targets={targets} />}
      {canNominate && workflow.isSuccess && targets.length === 0 && !canPush && (
        <Typography color="text.secondary">
          {t('This group does not nominate exams to a gatekeeper group.')}
        </Typography>
      )}
      {targets.length > 0 && canPush && <Divider />}
      {canPush && (
        <>
          <Typography variant="subtitle1" component="h3">
            {t('Push to a destination')}
          </Typography>
          <PushPanel study={study} accountId={accountId} />
        </>
      )}
    </Stack>
  );
}
