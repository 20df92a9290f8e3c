import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { STUDY_SORTS, type Study } from '@imaging-inbox/contract';
import { DatePreferencesContext } from '../../../lib/date-preferences';
import { newStudy } from '../../../test/factories';
import { WorklistTable } from './WorklistTable';

const studies = [
  newStudy({ patient_name: 'DOE^JANE', patientid: 'MRN-1', study_date: '20260314', modality: 'CT' }),
  newStudy({ patient_name: 'ROE^RICHARD^J', patientid: 'MRN-2', study_date: '20251201', modality: 'MR' }),
  newStudy({ patient_name: 'POE^EDGAR', patientid: 'MRN-3', study_date: '20240102', modality: 'US' }),
];

function Harness({ onOpen = vi.fn(), initialSort = STUDY_SORTS['Newest upload'] as string }) {
  const [sort, setSort] = useState(initialSort);
  const [checked, setChecked] = useState<Set<string>>(new Set());
  const check = (study: Study, on: boolean) =>
    setChecked((prev) => {
      const next = new Set(prev);
      if (on) next.add(study.uuid);
      else next.delete(study.uuid);
      return next;
    });
  return (
    <DatePreferencesContext.Provider value={{ dateFormat: 'DD/MM/YYYY', timeZone: 'UTC' }}>
      <output data-testid="sort">{sort}</output>
      <WorklistTable
        studies={studies}
        sort={sort}
        onSort={setSort}
        checked={checked}
        onCheck={check}
        onOpen={onOpen}
        groupName={() => 'Cardiology'}
      />
    </DatePreferencesContext.Provider>
  );
}

const rows = () => screen.getAllByTestId('worklist-row');
function row(index: number): HTMLElement {
  const found = rows()[index];
  if (!found) throw new Error(`no row ${index}`);
  return found;
}
const sortShown = () => screen.getByTestId('sort').textContent;

describe('WorklistTable', () => {
  it('shows names as LAST, FIRST and study dates in the user’s date format', () => {
    render(<Harness />);
    const first = within(row(0));
    expect(first.getByText('DOE, JANE')).toBeTruthy();
    expect(first.getByText('14/03/2026')).toBeTruthy();
    expect(first.getByText('Cardiology')).toBeTruthy();
    expect(within(row(1)).getByText('ROE, RICHARD, J')).toBeTruthy();
    expect(screen.queryByText(/\^/)).toBeNull();
    expect(screen.queryByText('20260314')).toBeNull();
  });

  it('sorts by a column header and flips the direction on a second click', () => {
    render(<Harness />);
    const header = (name: string) => screen.getByRole('button', { name });
    fireEvent.click(header('Patient name'));
    expect(sortShown()).toBe(STUDY_SORTS['Name (A to Z)']);
    expect(header('Patient name').closest('th')?.getAttribute('aria-sort')).toBe('ascending');
    fireEvent.click(header('Patient name'));
    expect(sortShown()).toBe(STUDY_SORTS['Name (Z to A)']);
    fireEvent.click(header('Study date'));
    expect(sortShown()).toBe(STUDY_SORTS['Newest exam date']);
    fireEvent.click(header('Study date'));
    expect(sortShown()).toBe(STUDY_SORTS['Oldest exam date']);
    fireEvent.click(header('Uploaded'));
    expect(sortShown()).toBe(STUDY_SORTS['Newest upload']);
    fireEvent.click(header('Uploaded'));
    expect(sortShown()).toBe(STUDY_SORTS['Oldest upload']);
  });

  it('starts on the search’s sort: newest upload first, so Uploaded turns to oldest first', () => {
    render(<Harness />);
    expect(screen.getByRole('button', { name: 'Uploaded' }).closest('th')?.getAttribute('aria-sort')).toBe(
      'descending',
    );
    fireEvent.click(screen.getByRole('button', { name: 'Uploaded' }));
    expect(sortShown()).toBe(STUDY_SORTS['Oldest upload']);
  });

  it('moves the row focus with the arrow keys, toggles with Space and opens with Enter', () => {
    const onOpen = vi.fn();
    render(<Harness onOpen={onOpen} />);
    expect(rows().map((r) => r.tabIndex)).toEqual([0, -1, -1]);
    row(0).focus();
    fireEvent.keyDown(row(0), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(row(1));
    expect(rows().map((r) => r.tabIndex)).toEqual([-1, 0, -1]);

    fireEvent.keyDown(row(1), { key: ' ' });
    expect(row(1).getAttribute('aria-selected')).toBe('true');
    expect(screen.getByRole('checkbox', { name: 'Select ROE, RICHARD, J' })).toHaveProperty('checked', true);
    fireEvent.keyDown(row(1), { key: 'ArrowDown' });
    fireEvent.keyDown(row(2), { key: ' ' });
    fireEvent.keyDown(row(2), { key: 'ArrowDown' });
    expect(document.activeElement).toBe(row(2));
    fireEvent.keyDown(row(2), { key: 'ArrowUp' });
    fireEvent.keyDown(row(1), { key: ' ' });
    expect(rows().map((r) => r.getAttribute('aria-selected'))).toEqual(['false', 'false', 'true']);

    fireEvent.keyDown(row(1), { key: 'Enter' });
    expect(onOpen).toHaveBeenCalledWith(studies[1]);
  });

  it('selects every row of the page from the header checkbox', () => {
    render(<Harness />);
    fireEvent.click(screen.getByRole('checkbox', { name: 'Select all exams on this page' }));
    expect(rows().every((r) => r.getAttribute('aria-selected') === 'true')).toBe(true);
  });
});
