import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { newStudy } from '../../../test/factories';
import { StudyCard } from './StudyCard';

describe('StudyCard', () => {
  const study = newStudy({
    patient_name: 'DAVIS^MICHELLE',
    patientid: 'MRN-42',
    study_description: 'CT HEAD',
  });

  it("has one button, the patient's name, whose accessible name holds its visible text", () => {
    render(<StudyCard study={study} active={false} onOpen={() => undefined} />);
    const [open, ...others] = screen.getAllByRole('button');
    expect(others).toEqual([]);
    expect(open!.textContent).toBe('DAVIS, MICHELLE');
    // WCAG 2.5.3: a speech user saying what they see ("DAVIS, MICHELLE") reaches the button.
    expect(open!.getAttribute('aria-label')).toBe('Open DAVIS, MICHELLE');
    expect(open!.closest('h3')).not.toBeNull();
    // The card's details are text beside the button, not inside it.
    expect(open!.textContent).not.toContain('MRN-42');
  });

  it('opens from its button (Enter or Space reach it as a click) and from a click anywhere on it', () => {
    const onOpen = vi.fn();
    render(<StudyCard study={study} active={false} onOpen={onOpen} />);
    fireEvent.click(screen.getByRole('button', { name: 'Open DAVIS, MICHELLE' }));
    expect(onOpen).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByText('CT HEAD'));
    expect(onOpen).toHaveBeenCalledTimes(2);
    expect(onOpen).toHaveBeenLastCalledWith(study);
  });

  it('names its selection box after the patient', () => {
    render(
      <StudyCard study={study} active checked={false} onOpen={() => undefined} onCheck={() => undefined} />,
    );
    expect(screen.getByRole('checkbox', { name: 'Select DAVIS, MICHELLE' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Open DAVIS, MICHELLE' }).getAttribute('aria-pressed')).toBe(
      'true',
    );
  });
});
