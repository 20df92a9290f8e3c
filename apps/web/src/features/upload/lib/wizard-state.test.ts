import { describe, expect, it } from 'vitest';
import { canAdvance, canOpenStep, isValidStep } from './steps';
import type { FoundStudy } from './studies';
import { initialWizardState, wizardReducer, type WizardState } from './wizard-state';

const study = (studyUid: string): FoundStudy => ({
  studyUid,
  patientName: 'DOE^JANE',
  patientId: 'MRN1',
  birthDate: '',
  studyDate: '20260101',
  description: '',
  accession: '',
  modalities: ['CT'],
  fileIndexes: [0],
  sopInstanceUids: ['1.2.3'],
  totalSize: 1,
});

describe('step rules', () => {
  it('opens only earlier steps and knows the valid ones', () => {
    expect(canOpenStep(0, 2)).toBe(true);
    expect(canOpenStep(2, 2)).toBe(false);
    expect(canOpenStep(3, 2)).toBe(false);
    expect(isValidStep(3)).toBe(true);
    expect(isValidStep(4)).toBe(false);
    expect(isValidStep(-1)).toBe(false);
  });

  it('needs a destination, then studies, then a selection', () => {
    const none = { destination: null, studyCount: 0, selectedCount: 0 };
    expect(canAdvance(0, none)).toBe(false);
    expect(canAdvance(0, { ...none, destination: 'ns' })).toBe(true);
    expect(canAdvance(1, none)).toBe(false);
    expect(canAdvance(1, { ...none, studyCount: 2 })).toBe(true);
    expect(canAdvance(2, { ...none, studyCount: 2 })).toBe(false);
    expect(canAdvance(2, { ...none, studyCount: 2, selectedCount: 1 })).toBe(true);
    expect(canAdvance(3, { destination: 'ns', studyCount: 2, selectedCount: 1 })).toBe(false);
  });
});

describe('wizardReducer', () => {
  const run = (state: WizardState, ...actions: Parameters<typeof wizardReducer>[1][]) =>
    actions.reduce(wizardReducer, state);

  it('advances one step at a time and never jumps forward', () => {
    let s = run(initialWizardState, { type: 'next' });
    expect(s.step).toBe(0);
    s = run(s, { type: 'destination', namespaceId: 'ns' }, { type: 'next' });
    expect(s.step).toBe(1);
    s = run(s, { type: 'goTo', step: 3 });
    expect(s.step).toBe(1);
    s = run(s, { type: 'goTo', step: 0 });
    expect(s.step).toBe(0);
  });

  it('selects new studies once existence is known and never selects existing ones', () => {
    let s = run(
      { ...initialWizardState, step: 2, destination: 'ns' },
      { type: 'scanned', files: [], studies: [study('a'), study('b'), study('c')], error: null },
    );
    expect(s.selected).toEqual([]);
    s = run(s, { type: 'toggle', studyUid: 'a' });
    expect(s.selected).toEqual([]);
    s = run(s, { type: 'existing', studyUids: ['b'] });
    expect(s.selected).toEqual(['a', 'c']);
    s = run(s, { type: 'toggle', studyUid: 'b' }, { type: 'toggle', studyUid: 'a' });
    expect(s.selected).toEqual(['c']);
    s = run(s, { type: 'toggleAll' });
    expect(s.selected).toEqual(['a', 'c']);
    s = run(s, { type: 'toggleAll' });
    expect(s.selected).toEqual([]);
    expect(run(s, { type: 'next' }).step).toBe(2);
  });

  it('asks again after the destination changes and resets to the start', () => {
    let s = run(
      { ...initialWizardState, destination: 'ns' },
      { type: 'scanned', files: [], studies: [study('a')], error: null },
      { type: 'existing', studyUids: [] },
    );
    s = run(s, { type: 'destination', namespaceId: 'other' });
    expect(s).toMatchObject({ existing: null, selected: [], studies: [study('a')] });
    expect(run(s, { type: 'reset' })).toEqual(initialWizardState);
  });

  it('keeps the documents a scan found with its result, until the next scan', () => {
    let s = run(initialWizardState, {
      type: 'scanned',
      files: [],
      studies: [study('a')],
      error: null,
      documents: 2,
    });
    expect(run(s, { type: 'goTo', step: 0 }, { type: 'next' }).documents).toBe(2);
    s = run(s, { type: 'scanned', files: [], studies: [study('b')], error: null });
    expect(s.documents).toBe(0);
    expect(run({ ...s, documents: 3 }, { type: 'reset' }).documents).toBe(0);
  });
});
