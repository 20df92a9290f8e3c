import type { AnonymizationOption } from '@imaging-inbox/contract';

/** Each PS3.15 Annex E option as the page names it (English, passed through `t`). */
export const OPTION_LABELS: Readonly<Record<AnonymizationOption, string>> = {
  retainLongitudinalModifiedDates: 'Keep intervals between dates (dates shifted)',
  retainPatientCharacteristics: 'Keep patient characteristics (sex, age, size, weight)',
  retainDeviceIdentity: 'Keep device identity',
  retainUids: 'Keep original UIDs',
  cleanDescriptors: 'Clean descriptions (keep them without identifying text)',
  cleanStructuredContent: 'Clean structured reports',
};
