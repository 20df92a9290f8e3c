import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { fireEvent, screen, waitFor } from '@testing-library/react';
import { DEBOUNCE_MS } from '@imaging-inbox/contract';
import { apiStub, renderWithRouter } from '../../../test/render';
import { EMPTY_ADVANCED_FILTERS } from '../lib/advanced-filters';
import { AdvancedSearchPanel } from './AdvancedSearchPanel';

describe('AdvancedSearchPanel match count', () => {
  const counted: URLSearchParams[] = [];

  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    counted.length = 0;
    vi.stubGlobal(
      'fetch',
      apiStub({
        'study/count': (body) => {
          counted.push(body);
          return [200, { status: 'OK', count: body.get('filter.patient_name.like') ? 1 : 7 }];
        },
        'setting/get': () => [200, { status: 'OK', settings: {} }],
      }),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('counts the exams Search would show once typing pauses for the advanced-search debounce', async () => {
    renderWithRouter(
      <AdvancedSearchPanel
        id="advanced"
        initial={EMPTY_ADVANCED_FILTERS}
        onSearch={() => {}}
        countScope={{ 'filter.phi_namespace.equals': 'ns-1' }}
      />,
    );
    expect((await screen.findByRole('status')).textContent).toBe('7 exams match');
    const box = screen.getByRole('textbox', { name: 'Patient name' });
    const typedAt = Date.now();
    for (const text of ['A', 'Ad', 'Ada']) fireEvent.change(box, { target: { value: text } });
    await waitFor(() => expect(screen.getByRole('status').textContent).toBe('1 exam matches'));
    expect(Date.now() - typedAt).toBeGreaterThanOrEqual(DEBOUNCE_MS - 5);
    // One call for the panel as opened, one for what was typed: none for the keystrokes between.
    expect(counted.map((b) => b.get('filter.patient_name.like'))).toEqual([null, '%Ada%']);
    expect(counted.every((b) => b.get('filter.phi_namespace.equals') === 'ns-1')).toBe(true);
  });

  it('asks nothing without a group to search', async () => {
    renderWithRouter(
      <AdvancedSearchPanel id="advanced" initial={EMPTY_ADVANCED_FILTERS} onSearch={() => {}} />,
    );
    await new Promise((resolve) => setTimeout(resolve, DEBOUNCE_MS + 50));
    expect(counted).toEqual([]);
    expect(screen.queryByRole('status')).toBeNull();
  });
});
