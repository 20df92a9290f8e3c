import { afterEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, within } from '@testing-library/react';
import { newGroup } from '../../../test/factories';
import { renderWithRouter } from '../../../test/render';
import { InboxContext, type InboxContextValue } from '../../../session/inbox-context';
import type { FoundStudy } from '../lib/studies';
import { initialWizardState } from '../lib/wizard-state';
import { EXISTS_CONCURRENCY } from '../api/study-exists';
import { EXAM_ROWS_PER_PAGE } from './SelectExamsStep';
import { UploadWizard } from './UploadWizard';

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

const group = newGroup({ name: 'Emergency' });
const inbox = { account: { uuid: 'account-1' } } as InboxContextValue;

describe('SelectExamsStep with many studies', () => {
  afterEach(() => vi.unstubAllGlobals());

  it('asks study/exists a few at a time, shows a page of rows, and Select all covers every page', async () => {
    const studies = Array.from({ length: 120 }, (_, i) => study(i + 1));
    let inFlight = 0;
    let most = 0;
    vi.stubGlobal('fetch', async (input: string) => {
      const url = new URL(input, 'http://localhost');
      const json = (body: unknown) =>
        new Response(JSON.stringify(body), { headers: { 'Content-Type': 'application/json' } });
      if (url.pathname.endsWith('/group/list')) return json({ status: 'OK', groups: [group] });
      inFlight++;
      most = Math.max(most, inFlight);
      await new Promise((r) => setTimeout(r, 1));
      inFlight--;
      const exists = url.searchParams.get('studyUID') === '1.2.1' ? 1 : 0;
      return json({ exists });
    });
    // The step inside the wizard, so Select all goes through the wizard's own selection.
    const files = Array.from({ length: studies.length + 1 }, (_, i) => new File(['x'], `IMG${i}`));
    renderWithRouter(
      <InboxContext.Provider value={inbox}>
        <UploadWizard
          initial={{ ...initialWizardState, step: 2, destination: group.namespace_id, files, studies }}
        />
      </InboxContext.Provider>,
      '/study/upload',
    );

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
    const next = screen.getByRole<HTMLButtonElement>('button', { name: 'Next' });
    expect(next.disabled).toBe(true);

    // Selecting all again takes every exam the destination lacks, on every page, and only those.
    fireEvent.click(all);
    expect(all.checked).toBe(true);
    fireEvent.click(next);
    expect(screen.getByText(/^119 exams \(119 files, .*\) will be uploaded to Emergency\.$/)).toBeTruthy();
    const toUpload = within(screen.getByRole('list', { name: 'Exams to upload' })).getAllByRole('listitem');
    expect(toUpload).toHaveLength(119);
    expect(screen.queryByText(/MRN1\)$/)).toBeNull();
  });
});
