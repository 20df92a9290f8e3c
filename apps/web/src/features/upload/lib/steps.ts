/** The DICOM upload wizard's steps, in order (SPEC.md section 2). */
export const UPLOAD_STEPS = ['Destination', 'Find Exams', 'Select Exams', 'Confirm'] as const;
export type UploadStepName = (typeof UPLOAD_STEPS)[number];

export const LAST_STEP = UPLOAD_STEPS.length - 1;

/** A step index the wizard can show; anything else renders 'Error: Invalid step'. */
export function isValidStep(step: number): boolean {
  return Number.isInteger(step) && step >= 0 && step <= LAST_STEP;
}

/** Earlier steps are clickable (going back); the current one and later ones are not. */
export function canOpenStep(target: number, active: number): boolean {
  return isValidStep(target) && target < active;
}

/** What Next needs on each step. */
export interface StepInput {
  destination: string | null;
  studyCount: number;
  selectedCount: number;
}

export function canAdvance(step: number, input: StepInput): boolean {
  switch (step) {
    case 0:
      return input.destination !== null;
    case 1:
      return input.studyCount > 0;
    case 2:
      return input.selectedCount > 0;
    default:
      return false;
  }
}
