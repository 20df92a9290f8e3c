import { describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { MESSAGES } from '@imaging-inbox/contract';
import type { FoundStudy } from '../lib/studies';
import { ScanSummary } from './ScanSummary';

const study = (n: number, files: number): FoundStudy => ({
  studyUid: `1.2.${n}`,
  patientName: `PATIENT^${n}`,
  patientId: `MRN${n}`,
  birthDate: '',
  studyDate: '20260101',
  description: `Study ${n}`,
  accession: '',
  modalities: ['CT'],
  fileIndexes: Array.from({ length: files }, (_, i) => n * 100 + i),
  sopInstanceUids: Array.from({ length: files }, (_, i) => `1.2.${n}.${i}`),
  totalSize: files * 1024 * 1024,
});

describe('ScanSummary', () => {
  it('says what was found, what was not taken and the page notes, with the table only where asked', () => {
    const studies = [study(1, 2), study(2, 1)];
    const problems = [{ path: 'exams.zip/CT/IMG9', reason: 'encrypted' as const }];
    const { rerender } = render(
      <ScanSummary error={null} problems={problems} studies={studies}>
        <p>A page note</p>
      </ScanSummary>,
    );
    expect(screen.getByRole('status').textContent).toMatch(/^2 exams found in 3 files \(3(\.0)? MB\)$/);
    expect(
      screen.getByText('exams.zip/CT/IMG9: encrypted (password-protected), it cannot be read'),
    ).toBeTruthy();
    expect(screen.getByText('A page note')).toBeTruthy();
    expect(screen.queryByRole('table', { name: 'Exams found' })).toBeNull();

    rerender(<ScanSummary error={null} problems={[]} studies={studies} table />);
    expect(screen.getAllByRole('row')).toHaveLength(3);
    expect(screen.queryByLabelText('Files not taken')).toBeNull();
  });

  it('shows the error and no exams line when nothing was found', () => {
    render(<ScanSummary error="uploadNoDicom" problems={[]} studies={[]} table />);
    expect(screen.getByText(MESSAGES.uploadNoDicom)).toBeTruthy();
    expect(screen.queryByRole('status')).toBeNull();
    expect(screen.queryByRole('table')).toBeNull();
  });
});
