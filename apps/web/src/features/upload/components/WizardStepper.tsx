import { Step, StepButton, StepLabel, Stepper } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { canOpenStep, UPLOAD_STEPS } from '../lib/steps';

/** The four steps; earlier ones are buttons that go back, the current and later ones are not. */
export function WizardStepper({
  active,
  onOpen,
  steps = UPLOAD_STEPS,
}: {
  active: number;
  onOpen: (step: number) => void;
  steps?: readonly string[];
}) {
  const { t } = useTranslation();
  return (
    <Stepper activeStep={active} nonLinear sx={{ mb: 3 }} aria-label={t('Upload steps')}>
      {steps.map((name, index) => (
        <Step key={name} completed={index < active}>
          {canOpenStep(index, active) ? (
            <StepButton onClick={() => onOpen(index)}>{t(name)}</StepButton>
          ) : (
            <StepLabel>{t(name)}</StepLabel>
          )}
        </Step>
      ))}
    </Stepper>
  );
}
