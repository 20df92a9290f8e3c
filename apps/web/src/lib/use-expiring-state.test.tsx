import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, renderHook } from '@testing-library/react';
import { useExpiringState } from './use-expiring-state';

describe('useExpiringState', () => {
  afterEach(() => vi.useRealTimers());

  it('goes back to null after the lifetime of the value set, and a new value restarts the clock', () => {
    vi.useFakeTimers();
    const { result } = renderHook(() => useExpiringState<string>((v) => (v === 'long' ? 10_000 : 5_000)));
    act(() => result.current[1]('short'));
    expect(result.current[0]).toBe('short');
    act(() => {
      vi.advanceTimersByTime(4_999);
    });
    expect(result.current[0]).toBe('short');
    act(() => result.current[1]('long'));
    act(() => {
      vi.advanceTimersByTime(9_999);
    });
    expect(result.current[0]).toBe('long');
    act(() => {
      vi.advanceTimersByTime(1);
    });
    expect(result.current[0]).toBeNull();
  });
});
