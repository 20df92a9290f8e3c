import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import {
  emptyPatientForm,
  localTodayIso,
  MESSAGES,
  patientFormErrors,
  type PatientFormValues,
} from '@imaging-inbox/contract';
import { PatientForm } from './PatientForm';

function Harness({ initial = emptyPatientForm }: { initial?: PatientFormValues }) {
  const [values, setValues] = useState(initial);
  const [attempted, setAttempted] = useState(false);
  const checked = patientFormErrors(values, localTodayIso());
  return (
    <>
      <PatientForm
        values={values}
        errors={checked.ok ? {} : checked.errors}
        onChange={setValues}
        attempted={attempted}
        onAttempt={() => setAttempted(true)}
      />
      <output aria-label="valid">{checked.ok ? 'yes' : 'no'}</output>
    </>
  );
}

const VALID: PatientFormValues = {
  firstName: 'Ann',
  middleName: '',
  lastName: 'Lee',
  patientDOB: '1984-03-07',
  patientMRN: 'MRN-1',
  patientGender: 'F',
  studyDate: '2026-05-04',
  studyTime: '',
  studyDescription: '',
};

const input = (label: RegExp) => screen.getByLabelText<HTMLInputElement>(label);
const type = (label: RegExp, value: string) => {
  fireEvent.change(input(label), { target: { value } });
  fireEvent.blur(input(label));
};
const future = () => {
  const d = new Date();
  d.setDate(d.getDate() + 2);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
};

describe('PatientForm', () => {
  it('marks mandatory fields and shows the mandatory message after a submit attempt only', () => {
    render(<Harness />);
    for (const label of ['First name', 'Last name', 'Date of Birth', 'MRN', 'Study Date']) {
      expect(
        screen.getByLabelText(new RegExp(`^${label}`)).closest('div')?.parentElement?.textContent,
      ).toContain('*');
    }
    expect(screen.queryByText(MESSAGES.formMandatory)).toBeNull();
    expect(screen.queryByText(MESSAGES.formEnterValue)).toBeNull();
    fireEvent.submit(screen.getByRole('form', { name: 'Patient details' }));
    expect(screen.getByText(MESSAGES.formMandatory)).toBeTruthy();
    expect(screen.getAllByText(MESSAGES.formEnterValue).length).toBe(6);
    expect(screen.getByLabelText('valid').textContent).toBe('no');
  });

  it('refuses dates ahead of today and times not in HH:MM', () => {
    render(<Harness initial={VALID} />);
    expect(screen.getByLabelText('valid').textContent).toBe('yes');
    type(/^Date of Birth/, future());
    expect(screen.getByText(MESSAGES.formDobFuture)).toBeTruthy();
    type(/^Date of Birth/, VALID.patientDOB);
    type(/^Study Date/, future());
    expect(screen.getByText(MESSAGES.formStudyDateFuture)).toBeTruthy();
    type(/^Study Date/, VALID.studyDate);
    type(/^Study Time/, '25:00');
    expect(screen.getByText(MESSAGES.formTimeFormat)).toBeTruthy();
    type(/^Study Time/, '09:30');
    expect(screen.queryByText(MESSAGES.formTimeFormat)).toBeNull();
    expect(screen.getByLabelText('valid').textContent).toBe('yes');
  });

  it('puts the birth-date rule on the study date and moves the study date up to a later birth date', () => {
    render(<Harness initial={VALID} />);
    type(/^Study Date/, '1980-01-01');
    expect(screen.getByText(MESSAGES.formStudyBeforeBirth)).toBeTruthy();
    expect(input(/^Study Date/).getAttribute('aria-invalid')).toBe('true');
    type(/^Study Date/, '2000-01-01');
    type(/^Date of Birth/, '2001-06-15');
    expect(input(/^Study Date/).value).toBe('06-15-2001'); // shown in the user's date format
    expect(screen.queryByText(MESSAGES.formStudyBeforeBirth)).toBeNull();
  });
});
