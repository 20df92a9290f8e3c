import { canAdvance, canOpenStep, LAST_STEP } from './steps';
import type { MediaProblem } from './media-scan';
import type { FoundStudy } from './studies';

export type ScanErrorKey = 'uploadNoExams' | 'uploadNoDicom' | 'uploadCannotLoad';

export interface WizardState {
  step: number;
  /** Namespace id of the chosen destination group. */
  destination: string | null;
  files: File[];
  studies: FoundStudy[];
  scanError: ScanErrorKey | null;
  /** Files of the selection the scan could not take, with why (shown under the result). */
  problems: MediaProblem[];
  /**
   * PDF, image and video files the scan found (loose or in a ZIP): not DICOM, so not taken here;
   * Find Exams names them and points to the other upload kind, on every return to the step too.
   */
  documents: number;
  /** Study UIDs the server already has in the destination's account; null until asked. */
  existing: string[] | null;
  selected: string[];
}

export const initialWizardState: WizardState = {
  step: 0,
  destination: null,
  files: [],
  studies: [],
  scanError: null,
  problems: [],
  documents: 0,
  existing: null,
  selected: [],
};

export type WizardAction =
  | { type: 'goTo'; step: number }
  | { type: 'next' }
  | { type: 'destination'; namespaceId: string }
  | {
      type: 'scanned';
      files: File[];
      studies: FoundStudy[];
      error: ScanErrorKey | null;
      problems?: MediaProblem[];
      documents?: number;
    }
  | { type: 'existing'; studyUids: string[] }
  | { type: 'toggle'; studyUid: string }
  | { type: 'toggleAll' }
  | { type: 'reset' };

const selectable = (state: WizardState) =>
  state.studies.map((s) => s.studyUid).filter((uid) => !state.existing?.includes(uid));

export function wizardReducer(state: WizardState, action: WizardAction): WizardState {
  switch (action.type) {
    case 'goTo':
      return canOpenStep(action.step, state.step) ? { ...state, step: action.step } : state;
    case 'next': {
      const ok = canAdvance(state.step, {
        destination: state.destination,
        studyCount: state.studies.length,
        selectedCount: state.selected.length,
      });
      return ok && state.step < LAST_STEP ? { ...state, step: state.step + 1 } : state;
    }
    case 'destination':
      // Another account may hold other studies: ask again.
      return action.namespaceId === state.destination
        ? state
        : { ...state, destination: action.namespaceId, existing: null, selected: [] };
    case 'scanned':
      return {
        ...state,
        files: action.files,
        studies: action.studies,
        scanError: action.error,
        problems: action.problems ?? [],
        documents: action.documents ?? 0,
        existing: null,
        selected: [],
      };
    case 'existing': {
      const next = { ...state, existing: action.studyUids };
      return { ...next, selected: selectable(next) };
    }
    case 'toggle': {
      if (state.existing === null || state.existing.includes(action.studyUid)) return state;
      const on = state.selected.includes(action.studyUid);
      return {
        ...state,
        selected: on
          ? state.selected.filter((u) => u !== action.studyUid)
          : [...state.selected, action.studyUid],
      };
    }
    case 'toggleAll': {
      const all = selectable(state);
      return { ...state, selected: state.selected.length === all.length ? [] : all };
    }
    case 'reset':
      return initialWizardState;
  }
}
