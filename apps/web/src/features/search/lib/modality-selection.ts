import { MODALITIES } from '@imaging-inbox/contract';

/** The modality multi-select: the 'all' option plus every individually chosen modality. */
export interface ModalitySelection {
  all: boolean;
  selected: string[];
}

export const ALL_MODALITIES_OPTION = 'ALL';
export const ALL_MODALITIES: ModalitySelection = { all: true, selected: [...MODALITIES] };
export const NO_MODALITIES: ModalitySelection = { all: false, selected: [] };

/**
 * Selection rules (SPEC.md section 4): choosing all selects all; unchecking all clears everything;
 * deselecting one while all is chosen turns all off; selecting every modality turns all on.
 */
export function toggleModality(
  current: ModalitySelection,
  option: string,
  options: readonly string[] = MODALITIES,
): ModalitySelection {
  if (option === ALL_MODALITIES_OPTION) {
    return current.all ? { all: false, selected: [] } : { all: true, selected: [...options] };
  }
  const selected = current.selected.includes(option)
    ? current.selected.filter((m) => m !== option)
    : [...current.selected, option];
  const ordered = options.filter((m) => selected.includes(m));
  return { all: ordered.length === options.length, selected: ordered };
}

/** 'All' when all is chosen, otherwise 'N Selected'. */
export function modalityLabel(selection: ModalitySelection): string {
  return selection.all ? 'All' : `${selection.selected.length} Selected`;
}

/** The modalities to filter by; null means no modality filter (all, or nothing chosen). */
export function modalityFilter(selection: ModalitySelection): string[] | null {
  if (selection.all || selection.selected.length === 0) return null;
  return selection.selected;
}
