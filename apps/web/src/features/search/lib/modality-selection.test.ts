import { describe, expect, it } from 'vitest';
import { MODALITIES } from '@imaging-inbox/contract';
import {
  ALL_MODALITIES,
  ALL_MODALITIES_OPTION,
  NO_MODALITIES,
  modalityFilter,
  modalityLabel,
  toggleModality,
} from './modality-selection';

describe('modality selection rules', () => {
  it('offers 43 modalities', () => {
    expect(MODALITIES).toHaveLength(43);
  });
  it('choosing all selects all', () => {
    const next = toggleModality({ all: false, selected: ['CT'] }, ALL_MODALITIES_OPTION);
    expect(next).toEqual(ALL_MODALITIES);
    expect(modalityLabel(next)).toBe('All');
  });
  it('unchecking all clears everything', () => {
    expect(toggleModality(ALL_MODALITIES, ALL_MODALITIES_OPTION)).toEqual(NO_MODALITIES);
  });
  it('deselecting one while all is chosen turns all off', () => {
    const next = toggleModality(ALL_MODALITIES, 'CT');
    expect(next.all).toBe(false);
    expect(next.selected).toHaveLength(42);
    expect(next.selected).not.toContain('CT');
    expect(modalityLabel(next)).toBe('42 Selected');
  });
  it('selecting every modality individually turns all on', () => {
    let selection = NO_MODALITIES;
    for (const m of MODALITIES) selection = toggleModality(selection, m);
    expect(selection.all).toBe(true);
    expect(modalityLabel(selection)).toBe('All');
  });
  it('keeps the option order and counts the chosen ones', () => {
    const next = toggleModality(toggleModality(NO_MODALITIES, 'MR'), 'CT');
    expect(next).toEqual({ all: false, selected: ['CT', 'MR'] });
    expect(modalityLabel(next)).toBe('2 Selected');
  });
  it('filters only by a partial choice', () => {
    expect(modalityFilter(ALL_MODALITIES)).toBeNull();
    expect(modalityFilter(NO_MODALITIES)).toBeNull();
    expect(modalityFilter({ all: false, selected: ['CT'] })).toEqual(['CT']);
  });
});
