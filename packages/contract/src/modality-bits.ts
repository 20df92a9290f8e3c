import { MODALITIES } from './studies.js';

/**
 * Each study also stores its modality set as a bit mask (bit i = MODALITIES[i]), so "modality in
 * (…)" is one integer test on an index instead of a join per study. MODALITIES is append-only:
 * reordering it would change the meaning of stored masks. Modalities outside the list set the
 * OTHER bit and are matched through the study_modalities table instead. Every bit stays below 53
 * so masks are exact JavaScript numbers.
 */
export const OTHER_MODALITY_BIT = 52;

export function isKnownModality(modality: string): boolean {
  return (MODALITIES as readonly string[]).includes(modality.toUpperCase());
}

export function modalityBit(modality: string): number {
  const index = (MODALITIES as readonly string[]).indexOf(modality.toUpperCase());
  return index === -1 ? OTHER_MODALITY_BIT : index;
}

/** The mask of a modality set (sum of distinct powers of two; JavaScript's `|` is only 32-bit). */
export function modalityMask(modalities: Iterable<string>): number {
  const bits = new Set<number>();
  for (const m of modalities) bits.add(modalityBit(m));
  let mask = 0;
  for (const bit of bits) mask += 2 ** bit;
  return mask;
}
