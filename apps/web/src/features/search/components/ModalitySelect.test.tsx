import { useState } from 'react';
import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen, within } from '@testing-library/react';
import { ALL_MODALITIES, type ModalitySelection } from '../lib/modality-selection';
import { ModalitySelect } from './ModalitySelect';

function Harness() {
  const [value, setValue] = useState<ModalitySelection>(ALL_MODALITIES);
  return <ModalitySelect value={value} onChange={setValue} />;
}

describe('ModalitySelect', () => {
  it('shows All, then N Selected as the user unticks and ticks', () => {
    render(<Harness />);
    const select = screen.getByRole('combobox', { name: 'Modality' });
    expect(select.textContent).toBe('All');
    fireEvent.mouseDown(select);
    const listbox = within(screen.getByRole('listbox'));
    expect(listbox.getAllByRole('option')).toHaveLength(44);
    fireEvent.click(listbox.getByRole('option', { name: 'CT' }));
    expect(select.textContent).toBe('42 Selected');
    fireEvent.click(listbox.getByRole('option', { name: 'All' }));
    expect(select.textContent).toBe('All');
    fireEvent.click(listbox.getByRole('option', { name: 'All' }));
    expect(select.textContent).toBe('0 Selected');
    fireEvent.click(listbox.getByRole('option', { name: 'MR' }));
    expect(select.textContent).toBe('1 Selected');
  });
});
