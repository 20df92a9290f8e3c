import { afterEach, describe, expect, it } from 'vitest';
import { act, cleanup, render, screen, within } from '@testing-library/react';
import { SnackbarProvider, useSnackbar, type ProviderContext } from 'notistack';
import { ANNOUNCED_SNACKBARS, snackbarLiveRegion } from './AnnouncedSnackbar';

/** The shell's snackbars, as InboxShell sets them up, and a handle to show some. */
function renderSnackbars(): { current: ProviderContext } {
  const handle = {} as { current: ProviderContext };
  function Grab() {
    handle.current = useSnackbar();
    return null;
  }
  render(
    <SnackbarProvider maxSnack={3} domRoot={snackbarLiveRegion()} Components={ANNOUNCED_SNACKBARS}>
      <Grab />
    </SnackbarProvider>,
  );
  return handle;
}

describe('AnnouncedSnackbar', () => {
  afterEach(() => cleanup());

  it('draws snackbars inside a polite live region that was in the page before them', async () => {
    const snackbars = renderSnackbars();
    const region = screen.getByTestId('snackbar-region');
    expect(region.getAttribute('role')).toBe('status');
    expect(region.getAttribute('aria-live')).toBe('polite');
    expect(region.textContent).toBe('');
    act(() => {
      snackbars.current.enqueueSnackbar('Exam successfully shared.', { variant: 'success' });
    });
    expect(await within(region).findByText('Exam successfully shared.')).toBeTruthy();
    // The same region, not a new one, so screen readers read what was added to it.
    expect(screen.getByTestId('snackbar-region')).toBe(region);
  });

  it('makes an error an alert, read at once, and gives each kind an icon besides its colour', async () => {
    const snackbars = renderSnackbars();
    act(() => {
      snackbars.current.enqueueSnackbar('Saved', { variant: 'success' });
      snackbars.current.enqueueSnackbar('Could not save', { variant: 'error' });
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toBe('Could not save');
    expect(alert.querySelector('[data-testid="ErrorIcon"]')).not.toBeNull();
    const saved = (await screen.findByText('Saved')).closest('[data-variant]')!;
    expect(saved.getAttribute('role')).toBe('none');
    expect(saved.querySelector('[data-testid="CheckCircleIcon"]')).not.toBeNull();
  });

  it('never gives two stacked snackbars the same id', async () => {
    const snackbars = renderSnackbars();
    act(() => {
      for (const text of ['One', 'Two', 'Three']) snackbars.current.enqueueSnackbar(text);
    });
    await screen.findByText('Three');
    const ids = [...snackbarLiveRegion().querySelectorAll('[id]')].map((el) => el.id);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
