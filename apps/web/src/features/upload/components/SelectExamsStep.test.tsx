import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { renderWithRouter } from '../../../test/render';
import type { FoundStudy } from '../lib/studies';
import { EXISTS_CONCURRENCY } from '../api/study-exists';
import { EXAM_ROWS_PER_PAGE, SelectExamsStep } from './SelectExamsStep';

const study = (n: number): FoundStudy => ({
  studyUid: `1.2.${n}`,
  patientName: `PATIENT^${n}`,
  patientId: `MRN${n}`,
  birthDate: '',
  studyDate: '20260101',
  description: `Study ${n}`,
  accession: '',
  modalities: ['CT'],
  fileIndexes: [n],
  sopInstanceUids: [`1.2.${n}.1`],
  totalSize: 1000,
});

/** The step with the wizard's selection logic reduced to what the table needs. */
function Harness({ studies }: { studies: FoundStudy[] }) {
  const [existing, setExisting] = useState<string[] | null>(null);
  const [selected, setSelected] = useState<string[]>([]);
  const selectable = () => studies.map((s) => s.studyUid).filter((u) => !existing?.includes(u));
  return (
    <SelectExamsStep
      studies={studies}
      accountUuid="account-1"
      partial={new Set()}
      existing={existing}
      selected={selected}
      onExisting={(uids) => {
        setExisting(uids);
        setSelected(studies.map((s) => s.studyUid).filter((u) => !uids.includes(u)));
      }}
      onToggle={(uid) => setSelected((s) => (s.includes(uid) ? s.filter((u) => u !== uid) : [...s, uid]))}
      onToggleAll={() => setSelected((s) => (s.length === selectable().length ? [] : selectable()))}
    />
  );
}

describe('SelectExamsStep with many studies', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks study/exists a few at a time, shows a page of rows, and Select all covers every page', async () => {
    const studies = Array.from({ length: 120 }, (_, i) => study(i + 1));
    let inFlight = 0;
    let most = 0;
    vi.stubGlobal('fetch', async (input: string) => {
      const url = new URL(input, 'http://localhost');
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      const exists = url.searchParams.get('studyUID') === '1.2.1' ? 1 : 0;
      return new Response(JSON.stringify({ exists }), { headers: { 'Content-Type': 'application/json' } });
    });
    renderWithRouter(<Harness studies={studies} />, '/study/upload');

    const table = await screen.findByRole('table', { name: 'Exams found' });
    expect(most).toBeLessThanOrEqual(EXISTS_CONCURRENCY);
    // A header row and one page of studies.
    expect(within(table).getAllByRole('row')).toHaveLength(EXAM_ROWS_PER_PAGE + 1);
    expect(within(table).getByText('Already uploaded')).toBeTruthy();
    const all = screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select all exams' });
    expect(all.checked).toBe(true);

    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(within(table).getByText('Study 51')).toBeTruthy();
    expect(within(table).queryByText('Study 1')).toBeNull();
    fireEvent.click(all);
    // Unselecting all reaches the rows of other pages too.
    expect(
      screen.getByRole<HTMLInputElement>('checkbox', { name: 'Select exam of PATIENT, 51' }).checked,
    ).toBe(false);
    fireEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    expect(within(table).getAllByRole('row')).toHaveLength(120 - 2 * EXAM_ROWS_PER_PAGE + 1);
    expect(
      within(table)
        .getAllByRole('checkbox')
        .every((c) => !(c as HTMLInputElement).checked),
    ).toBe(true);
  });
});
