import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import { renderWithRouter } from '../../../test/render';
import type { RunFailure, RunStudy, UploadRun } from '../lib/upload-store';
import { FAILURES_LISTED, STUDY_ROWS_PER_PAGE, UploadRunPanel } from './UploadRunPanel';

const study = (n: number): RunStudy => ({
  studyUid: `1.2.${n}`,
  patientName: `PATIENT^${n}`,
  patientId: `MRN${n}`,
  description: `Study ${n}`,
  fileCount: 10,
  stored: 9,
  duplicates: 0,
  failed: 1,
});
const failure = (n: number): RunFailure => ({
  file: new File([], `IM${n}`),
  studyUid: '1.2.1',
  name: `CD/IM${n}`,
  code: 'INVALID_DICOM',
});

const run = (over: Partial<UploadRun>): UploadRun => ({
  id: 1,
  status: 'failed',
  namespaceId: 'ns',
  destinationName: 'Emergency',
  totalBytes: 100,
  uploadedBytes: 90,
  answered: 1200,
  fileCount: 1200,
  studies: Array.from({ length: 120 }, (_, i) => study(i + 1)),
  failures: Array.from({ length: 120 }, (_, i) => failure(i + 1)),
  ...over,
});

describe('UploadRunPanel with a large run', () => {
  it('pages the studies and lists a bounded number of failed files with the rest counted', () => {
    renderWithRouter(<UploadRunPanel run={run({})} />, '/study/upload');
    const table = screen.getByRole('table', { name: 'Uploaded exams' });
    expect(within(table).getAllByRole('row')).toHaveLength(STUDY_ROWS_PER_PAGE + 1);
    expect(screen.getByText(`1–${STUDY_ROWS_PER_PAGE} of 120`)).toBeTruthy();
    const listed = within(screen.getByRole('list', { name: 'Failed files' })).getAllByRole('listitem');
    expect(listed).toHaveLength(FAILURES_LISTED);
    expect(screen.getByText(`and ${120 - FAILURES_LISTED} more failed files`)).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Retry failed files' })).toBeTruthy();
  });

  it('shows files answered of all while running', () => {
    renderWithRouter(
      <UploadRunPanel run={run({ status: 'uploading', answered: 700, failures: [] })} />,
      '/study/upload',
    );
    expect(screen.getByText('700 of 1200 files')).toBeTruthy();
  });

  it('says the progress through a live region while running', () => {
    renderWithRouter(
      <UploadRunPanel run={run({ status: 'uploading', answered: 700, failures: [] })} />,
      '/study/upload',
    );
    expect(screen.getByRole('status').textContent).toMatch(/MB of .* MB \(\d+%\)/);
    expect(screen.getByRole('progressbar', { name: 'Upload progress' })).toBeTruthy();
  });
});
