import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { ALL_DATES, DATE_PRESETS, UPLOADED_DATE_PRESETS, type DatePreset } from '../../../lib/dates';
import { DatePreferencesContext } from '../../../lib/date-preferences';
import { DateRangePicker } from './DateRangePicker';

function setup(presets: readonly DatePreset[] = DATE_PRESETS) {
  const onSave = vi.fn();
  const onCancel = vi.fn();
  render(<DateRangePicker presets={presets} value={ALL_DATES} onSave={onSave} onCancel={onCancel} />);
  return { onSave, onCancel };
}

describe('DateRangePicker', () => {
  it('speaks French: months, weekdays and the date format hint', async () => {
    await setLanguage('fr');
    try {
      setup();
      const monthName = (d: Date) => d.toLocaleString('fr-FR', { month: 'long', year: 'numeric' });
      await waitFor(() =>
        expect(screen.getAllByRole('grid').map((g) => g.getAttribute('aria-label'))).toContain(
          monthName(new Date()),
        ),
      );
      const firstDay = screen.getAllByRole('grid')[0]!.querySelector('thead th');
      expect(firstDay?.getAttribute('aria-label')).toBe('lundi');
      expect(screen.getAllByPlaceholderText('MM-JJ-AAAA').length).toBeGreaterThan(0);
    } finally {
      await setLanguage('en');
    }
  });

  it('shows two months with weeks starting Monday', () => {
    setup();
    const grids = screen.getAllByRole('grid');
    expect(grids).toHaveLength(2);
    const firstDay = grids[0]!.querySelector('thead th');
    expect(firstDay?.getAttribute('aria-label')).toBe('Monday');
  });

  it('opens on the previous and the current month and disables days after today', () => {
    setup();
    const now = new Date();
    const previous = new Date(now.getFullYear(), now.getMonth() - 1, 1);
    const monthName = (d: Date) => d.toLocaleString('en-US', { month: 'long', year: 'numeric' });
    const grids = screen.getAllByRole('grid');
    expect(grids.map((g) => g.getAttribute('aria-label'))).toEqual([monthName(previous), monthName(now)]);
    // No way forward past this month.
    const next = screen.getByRole('button', { name: /next month/i });
    expect(next.getAttribute('aria-disabled') ?? String((next as HTMLButtonElement).disabled)).toBe('true');
    const tomorrow = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    if (tomorrow.getMonth() === now.getMonth()) {
      const cell = grids[1]!.querySelector(`[data-day="${tomorrow.toLocaleDateString('en-CA')}"]`);
      expect(cell?.hasAttribute('data-disabled')).toBe(true);
    }
  });

  it('applies a preset at once (closing the picker)', () => {
    const { onSave } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Last 7 days' }));
    expect(onSave).toHaveBeenCalledWith(expect.objectContaining({ label: 'Last 7 days', mode: 'Between' }));
  });

  it('keeps the calendar open for Custom until Save', () => {
    const { onSave } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Custom date range' }));
    expect(onSave).not.toHaveBeenCalled();
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '01-02-2024' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '20240110' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith({
      label: 'Custom date range',
      mode: 'Between',
      startDate: '2024-01-02',
      endDate: '2024-01-10',
    });
  });

  it('blocks Save on a half-filled Between range or a bad typed date', () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Custom date range' }));
    fireEvent.change(screen.getByLabelText('Start date'), { target: { value: '01-02-2024' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(true);
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '13-45-2024' } });
    expect(screen.getByRole<HTMLButtonElement>('button', { name: 'Save' }).disabled).toBe(true);
  });

  it('cancels without saving', () => {
    const { onSave, onCancel } = setup();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalled();
    expect(onSave).not.toHaveBeenCalled();
  });

  it('has no Yesterday preset for the uploaded date', () => {
    setup(UPLOADED_DATE_PRESETS);
    expect(screen.queryByRole('button', { name: 'Yesterday' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Today and yesterday' })).toBeTruthy();
  });

  it("takes and shows typed days in the user's date format, not the browser's", () => {
    const onSave = vi.fn();
    render(
      <DatePreferencesContext.Provider value={{ dateFormat: 'DD/MM/YYYY', timeZone: null }}>
        <DateRangePicker presets={DATE_PRESETS} value={ALL_DATES} onSave={onSave} onCancel={vi.fn()} />
      </DatePreferencesContext.Provider>,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Custom date range' }));
    const start = screen.getByLabelText('Start date');
    expect(start.getAttribute('placeholder')).toBe('DD/MM/YYYY');
    fireEvent.change(start, { target: { value: '02/01/2024' } });
    fireEvent.change(screen.getByLabelText('End date'), { target: { value: '10/01/2024' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(onSave).toHaveBeenCalledWith(
      expect.objectContaining({ startDate: '2024-01-02', endDate: '2024-01-10' }),
    );
  });
});
