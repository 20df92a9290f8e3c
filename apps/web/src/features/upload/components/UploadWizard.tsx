import { useCallback, useEffect, useMemo, useReducer, useState } from 'react';
import { Alert, Box, Button, CircularProgress, Stack } from '@mui/material';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { useUploadDestinations } from '../api/destinations';
import { canAdvance, LAST_STEP } from '../lib/steps';
import { initialWizardState, wizardReducer, type WizardState } from '../lib/wizard-state';
import { partlyUploaded } from '../lib/partly-uploaded';
import { resumeStore, startUpload } from '../upload-runtime';
import { ConfirmStep } from './ConfirmStep';
import { DestinationStep } from './DestinationStep';
import { FindExamsStep } from './FindExamsStep';
import { SelectExamsStep } from './SelectExamsStep';
import { WizardStepper } from './WizardStepper';

const NONE_PARTIAL = new Set<string>();

/** Destination → Find Exams → Select Exams → Confirm; sending resets the wizard (SPEC.md section 4). */
export function UploadWizard({
  initial = initialWizardState,
  wrapping = false,
}: {
  initial?: WizardState;
  /** Whether the account takes PDF, image and video files (the other upload kind). */
  wrapping?: boolean;
}) {
  const { t } = useTranslation();
  const [state, dispatch] = useReducer(wizardReducer, initial);
  const destinations = useUploadDestinations();
  const destination = destinations?.find((g) => g.namespace_id === state.destination);
  const onExisting = useCallback((studyUids: string[]) => dispatch({ type: 'existing', studyUids }), []);
  const onToggle = useCallback((studyUid: string) => dispatch({ type: 'toggle', studyUid }), []);
  const onToggleAll = useCallback(() => dispatch({ type: 'toggleAll' }), []);
  const chosen = useMemo(() => {
    const selected = new Set(state.selected);
    return state.studies.filter((s) => selected.has(s.studyUid));
  }, [state.studies, state.selected]);
  // Read from IndexedDB (asynchronously): kept with what it was read for, so a stale answer never shows.
  const [found, setFound] = useState<{ studies: unknown; destination: string; partial: Set<string> }>();
  const { studies, files, destination: destinationId } = state;
  useEffect(() => {
    if (!destinationId) return;
    let live = true;
    partlyUploaded(studies, files, destinationId, resumeStore)
      .then((partial) => live && setFound({ studies, destination: destinationId, partial }))
      .catch(() => undefined);
    return () => {
      live = false;
    };
  }, [studies, files, destinationId]);
  const partial =
    found && found.studies === state.studies && found.destination === state.destination
      ? found.partial
      : NONE_PARTIAL;

  const upload = () => {
    if (!destination || chosen.length === 0) return;
    startUpload(
      { namespaceId: destination.namespace_id, destinationName: destination.name },
      chosen.map((s) => ({
        studyUid: s.studyUid,
        patientName: s.patientName,
        patientId: s.patientId,
        description: s.description,
        files: s.fileIndexes.map((i) => state.files[i]!),
        sopInstanceUids: s.sopInstanceUids,
      })),
    );
    dispatch({ type: 'reset' });
  };

  const content = () => {
    switch (state.step) {
      case 0:
        return destinations === null ? (
          <CircularProgress aria-label={t('Loading')} />
        ) : (
          <DestinationStep
            destinations={destinations}
            value={state.destination}
            onChange={(namespaceId) => dispatch({ type: 'destination', namespaceId })}
          />
        );
      case 1:
        return (
          <FindExamsStep
            wrapping={wrapping}
            studies={state.studies}
            error={state.scanError}
            problems={state.problems}
            documents={state.documents}
            onScanned={(files, studies, error, problems, documents) =>
              dispatch({ type: 'scanned', files, studies, error, problems, documents })
            }
          />
        );
      case 2:
        return (
          <SelectExamsStep
            studies={state.studies}
            accountUuid={destination?.account_id}
            partial={partial}
            existing={state.existing}
            selected={state.selected}
            onExisting={onExisting}
            onToggle={onToggle}
            onToggleAll={onToggleAll}
          />
        );
      case 3:
        return <ConfirmStep destinationName={destination?.name ?? ''} studies={chosen} />;
      default:
        return <Alert severity="error">{t(MESSAGES.invalidStep)}</Alert>;
    }
  };

  const nextAllowed = canAdvance(state.step, {
    destination: destination ? state.destination : null,
    studyCount: state.studies.length,
    selectedCount: state.selected.length,
  });
  return (
    <Box>
      <WizardStepper active={state.step} onOpen={(step) => dispatch({ type: 'goTo', step })} />
      {content()}
      <Stack direction="row" spacing={1} sx={{ mt: 3 }}>
        {state.step > 0 && (
          <Button onClick={() => dispatch({ type: 'goTo', step: state.step - 1 })}>{t('Back')}</Button>
        )}
        {state.step < LAST_STEP ? (
          <Button variant="contained" disabled={!nextAllowed} onClick={() => dispatch({ type: 'next' })}>
            {t('Next')}
          </Button>
        ) : (
          <Button variant="contained" disabled={chosen.length === 0 || !destination} onClick={upload}>
            {t('Upload')}
          </Button>
        )}
      </Stack>
    </Box>
  );
}
