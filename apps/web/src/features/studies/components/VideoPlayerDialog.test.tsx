import { describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { VideoPlayerDialog } from './VideoPlayerDialog';

const message = 'This video cannot be played in the browser.';
const url = (n: number) => `/dicomweb/studies/1.2.3/series/1.2.3.${n}/instances/1.2.3.${n}.1/rendered`;

describe('VideoPlayerDialog', () => {
  it('says a video cannot be played only for the video that failed, not for the next one', () => {
    const { rerender } = render(<VideoPlayerDialog url={url(1)} title="First" onClose={() => undefined} />);
    expect(screen.queryByText(message)).toBeNull();
    fireEvent.error(screen.getByLabelText('First', { selector: 'video' }));
    expect(screen.getByText(message)).toBeTruthy();

    rerender(<VideoPlayerDialog url={url(2)} title="Second" onClose={() => undefined} />);
    expect(screen.getByLabelText('Second', { selector: 'video' })).toBeTruthy();
    expect(screen.queryByText(message)).toBeNull();

    rerender(<VideoPlayerDialog url={url(1)} title="First" onClose={() => undefined} />);
    expect(screen.getByText(message)).toBeTruthy();
  });
});
