import { describe, expect, it } from 'vitest';
import { scrollCue } from './scroll-cue';

describe('scrollCue', () => {
  it('shows no cue when the table fits its frame', () => {
    expect(scrollCue({ scrollLeft: 0, scrollWidth: 900, clientWidth: 900 })).toBe('none');
    // A rounding pixel is not a hidden column.
    expect(scrollCue({ scrollLeft: 0, scrollWidth: 901, clientWidth: 900 })).toBe('none');
  });

  it('points at the end while columns lie to the right, at both sides in between, at the start once scrolled to the end', () => {
    expect(scrollCue({ scrollLeft: 0, scrollWidth: 1190, clientWidth: 900 })).toBe('end');
    expect(scrollCue({ scrollLeft: 120, scrollWidth: 1190, clientWidth: 900 })).toBe('both');
    expect(scrollCue({ scrollLeft: 290, scrollWidth: 1190, clientWidth: 900 })).toBe('start');
    expect(scrollCue({ scrollLeft: 289.5, scrollWidth: 1190, clientWidth: 900 })).toBe('start');
  });
});
