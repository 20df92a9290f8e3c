import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { setSid } from '../../../lib/storage';
import { apiStub } from '../../../test/render';
import { newStudy } from '../../../test/factories';
import { ViewerTab } from './ViewerTab';

afterEach(() => vi.restoreAllMocks());
afterEach(() => vi.unstubAllGlobals());

function setup() {
  setSid('sid-1');
  let issued = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(
      apiStub({
        'study/viewer/token': () => [200, { status: 'OK', token: `vt_${++issued}`, expires: 1 }],
      }),
    ),
  );
  const onClose = vi.fn();
  const study = newStudy({ storage_namespace: 'ns-a', phi_namespace: 'ns-a', study_uid: '1.2.3' });
  render(<ViewerTab study={study} onClose={onClose} />);
  const frame = screen.getByTitle<HTMLIFrameElement>('Viewer');
  return { onClose, frame, issued: () => issued };
}

const post = async (
  data: unknown,
  origin = window.location.origin,
  source: MessageEventSource | null = null,
) => {
  await act(async () => {
    window.dispatchEvent(new MessageEvent('message', { data, origin, source }));
    await Promise.resolve();
  });
};

describe('ViewerTab', () => {
  it('embeds the viewer at /viewer/#study/{storage}/{uid}/{phi} with the date format, without the session id', () => {
    const { frame } = setup();
    expect(frame.getAttribute('src')).toBe('/viewer/?date_format=MM-DD-YYYY#study/ns-a/1.2.3/ns-a');
    expect(frame.getAttribute('src')).not.toContain('sid');
  });

  it('closes on close-viewer from this origin, as an object or as JSON text', async () => {
    const { onClose } = setup();
    await post({ action: 'close-viewer' });
    await post(JSON.stringify({ action: 'close-viewer' }));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it('ignores messages from other origins', async () => {
    const { onClose } = setup();
    await post({ action: 'close-viewer' }, 'https://evil.example');
    expect(onClose).not.toHaveBeenCalled();
  });

  it('logs a message that does not parse instead of throwing', async () => {
    const error = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const { onClose } = setup();
    await post('{not json');
    await post(42);
    await post({ action: 'unknown' });
    expect(onClose).not.toHaveBeenCalled();
    expect(error).toHaveBeenCalledTimes(2);
    expect(String(error.mock.calls[0]![0])).toContain('viewer');
  });

  it('answers its own iframe with a token, a fresh one on each later request', async () => {
    const { frame, issued } = setup();
    const target = frame.contentWindow!;
    const sent: unknown[] = [];
    vi.spyOn(target, 'postMessage').mockImplementation((message: unknown) => void sent.push(message));
    await post({ action: 'viewer-token-request' }, window.location.origin, target);
    await waitFor(() => expect(sent).toEqual([{ action: 'viewer-token', token: 'vt_1', expires: 1 }]));
    await post({ action: 'viewer-token-request' }, window.location.origin, target);
    await waitFor(() => expect(sent).toHaveLength(2));
    expect(sent[1]).toMatchObject({ token: 'vt_2' });
    expect(issued()).toBe(2);
    // Another same-origin window asking gets nothing.
    await post({ action: 'viewer-token-request' }, window.location.origin, window);
    expect(sent).toHaveLength(2);
  });

  it('toggles full screen at 100vh by 100vw', () => {
    setup();
    fireEvent.click(screen.getByRole('button', { name: 'Full screen' }));
    const container = screen.getByTestId('viewer-container');
    expect(getComputedStyle(container).width).toBe('100vw');
    expect(getComputedStyle(container).height).toBe('100vh');
    fireEvent.click(screen.getByRole('button', { name: 'Exit full screen' }));
    expect(getComputedStyle(screen.getByTestId('viewer-container')).position).not.toBe('fixed');
  });
});
