import { useCallback, useEffect, useState } from 'react';
import { useNavigate } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { useSnackbar } from 'notistack';
import { Alert, Stack, Step, StepLabel, Stepper } from '@mui/material';
import type { GatekeeperConfig, Study } from '@imaging-inbox/contract';
import { useTranslation } from '../../../../lib/i18n';
import { Loading } from '../../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../../components/UnexpectedErrorAlert';
import { useDestinations } from '../../../destinations';
import { useNomination } from '../../api/nomination';
import { refreshStudies } from '../../api/study-cache';
import type { FoundOrder } from '../../api/order-search';
import { FORM_NOT_CONFIGURED } from '../../lib/nomination-form';
import {
  PROCESS_STEPS,
  STEP_LABELS,
  examDemographics,
  startOverStep,
  stepBy,
  type ProcessStep,
} from '../../lib/process-flow';
import { ComparisonStep } from './ComparisonStep';
import { NominationStep } from './NominationStep';
import { RejectDialog } from './RejectDialog';
import { SearchOrderStep } from './SearchOrderStep';
import { SearchPatientStep } from './SearchPatientStep';

/** How long the decision's banner shows over the exam before the view moves to its new state. */
const MOVE_DELAY_MS = 1500;

interface Props {
  study: Study;
  groupUuid: string;
  accountId: string;
  config: GatekeeperConfig | null;
}

/**
 * The Process tab of a nomination (SPEC.md section 2, Process flow): Nomination, then Search Order
 * (MWL) or Search Patient (C-Find) or nothing (no query), then Order Comparison and Send to PACS;
 * one step forward or back at a time. Rejecting is reachable from the Nomination step.
 */
export function ProcessWizard({ study, groupUuid, accountId, config }: Props) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const nomination = useNomination(study.uuid);
  const destinations = useDestinations(accountId);
  const [step, setStep] = useState<ProcessStep>('nomination');
  const [order, setOrder] = useState<FoundOrder | null>(null);
  const [candidates, setCandidates] = useState<FoundOrder[]>([]);
  const [rejecting, setRejecting] = useState(false);
  const queryClient = useQueryClient();
  const { enqueueSnackbar } = useSnackbar();
  // The banner is a snackbar so it outlives the panel; the timer is not tied to this component
  // either: the exam leaves Nominations, and the view follows it (SPEC.md section 4) whatever
  // the panel does meanwhile. No ?study= in the new route: the selection clears.
  const decided = useCallback(
    (banner: string, state: string) => {
      enqueueSnackbar(t(banner), { variant: 'success' });
      setTimeout(() => {
        void refreshStudies(queryClient);
        void navigate(`/group/${encodeURIComponent(groupUuid)}/${encodeURIComponent(state)}`);
      }, MOVE_DELAY_MS);
    },
    [enqueueSnackbar, t, queryClient, navigate, groupUuid],
  );
  const onSent = useCallback(() => decided('Exam is being sent to PACS', 'Queued'), [decided]);
  useEffect(() => {
    if (!config) console.warn('GateKeeper configuration not found!');
  }, [config]);

  if (!config) return <Alert severity="warning">{t(FORM_NOT_CONFIGURED)}</Alert>;
  if (nomination.isPending || destinations.isPending) return <Loading />;
  if (nomination.isError || destinations.isError) return <UnexpectedErrorAlert />;
  const current = nomination.data.nomination;
  if (!current) return <Alert severity="info">{t('This exam was not nominated.')}</Alert>;

  const steps = PROCESS_STEPS[config.pacsPromotePreference];
  const exam = examDemographics(study);
  const canDecide = study.permissions.study_approve === 1 && study.permissions.study_push === 1;
  const sendTo = destinations.data.filter((d) => config.destinations.includes(d.uuid));
  const queried = destinations.data.find((d) => d.uuid === config.queryDestination) ?? null;
  const choose = (chosen: FoundOrder, all: FoundOrder[]) => {
    setOrder(chosen);
    setCandidates(all);
    setStep('comparison');
  };
  const withoutOrder = () => {
    setOrder(null);
    setCandidates([]);
    setStep('comparison');
  };
  const back = () => setStep(stepBy(steps, step, -1));

  return (
    <Stack spacing={2}>
      <Stepper activeStep={steps.indexOf(step)} alternativeLabel aria-label={t('Process steps')}>
        {steps.map((s) => (
          <Step key={s}>
            <StepLabel>{t(STEP_LABELS[s])}</StepLabel>
          </Step>
        ))}
      </Stepper>
      {step === 'nomination' && (
        <NominationStep
          study={study}
          nomination={current}
          fields={config.customFields}
          canDecide={canDecide}
          onReject={() => setRejecting(true)}
          onProcess={() => setStep(stepBy(steps, step, 1))}
        />
      )}
      {step === 'search-order' && (
        <SearchOrderStep
          groupUuid={groupUuid}
          exam={exam}
          onChoose={choose}
          onWithoutOrder={withoutOrder}
          onBack={back}
        />
      )}
      {step === 'search-patient' && (
        <SearchPatientStep
          copyUuid={study.uuid}
          destination={queried}
          mrn={study.patientid}
          onChoose={choose}
          onWithoutOrder={withoutOrder}
          onBack={back}
        />
      )}
      {step === 'comparison' && (
        <ComparisonStep
          copyUuid={study.uuid}
          exam={exam}
          order={order}
          candidates={candidates}
          typedAccession={config.pacsPromotePreference !== 'MWL' || order === null}
          destinations={sendTo}
          priority={current.answers['priority'] === 'Priority' ? 'Priority' : 'Routine'}
          onChooseOrder={setOrder}
          onStartOver={() => setStep(startOverStep(steps))}
          onBack={back}
          onSent={onSent}
        />
      )}
      <RejectDialog
        open={rejecting}
        copyUuid={study.uuid}
        onClose={() => setRejecting(false)}
        onRejected={() => {
          setRejecting(false);
          decided('Exam has been rejected', 'Rejected');
        }}
      />
    </Stack>
  );
}
