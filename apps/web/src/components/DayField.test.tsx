import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { DatePreferencesContext } from '../lib/date-preferences';
import { DayField } from './DayField';

function Harness({ initial }: { initial: string }) {
  const [value, setValue] = useState(initial);
  return (
    <DatePreferencesContext.Provider value={{ dateFormat: 'DD/MM/YYYY', timeZone: null }}>
      <DayField label="Study date" value={value} onChange={setValue} />
      <output aria-label="value">{value}</output>
      <button onClick={() => setValue('')}>Clear</button>
    </DatePreferencesContext.Provider>
  );
}

describe('DayField', () => {
  it("shows and reads days in the user's date format, handing the form YYYY-MM-DD", () => {
    render(<Harness initial="2024-01-02" />);
    const field = screen.getByLabelText('Study date');
    expect((field as HTMLInputElement).value).toBe('02/01/2024');
    expect(field.getAttribute('placeholder')).toBe('DD/MM/YYYY');
    fireEvent.change(field, { target: { value: '31/12/2025' } });
    expect(screen.getByLabelText('value').textContent).toBe('2025-12-31');
  });

  it('hands a day it cannot read on as typed, marked, and follows a cleared form', () => {
    render(<Harness initial="" />);
    const field = screen.getByLabelText('Study date');
    fireEvent.change(field, { target: { value: '12-31-2025' } });
    expect(screen.getByLabelText('value').textContent).toBe('12-31-2025');
    expect(screen.getByText('Use the date format DD/MM/YYYY')).toBeTruthy();
    fireEvent.change(field, { target: { value: '01/02/2024' } });
    fireEvent.click(screen.getByText('Clear'));
    expect((field as HTMLInputElement).value).toBe('');
  });
});
