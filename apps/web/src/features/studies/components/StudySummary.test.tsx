import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { newStudy } from '../../../test/factories';
import { renderWithRouter } from '../../../test/render';
import { StudySummary } from './StudySummary';

describe('StudySummary', () => {
  beforeEach(() => {
    // The series thumbnails ask for the study's series; an empty answer is enough here.
    vi.stubGlobal(
      'fetch',
      vi.fn(() =>
        Promise.resolve(
          new Response(JSON.stringify({ status: 'OK', series: [] }), {
            headers: { 'Content-Type': 'application/json' },
          }),
        ),
      ),
    );
  });
  afterEach(() => vi.unstubAllGlobals());

  it('shows the message a shared copy came with', () => {
    renderWithRouter(<StudySummary study={newStudy({ share_message: 'Please review\nthe left lung' })} />);
    const note = screen.getByRole('alert', { name: 'Share message' });
    expect(note.textContent).toContain('Message from the sender');
    expect(note.textContent).toContain('Please review\nthe left lung');
  });

  it('shows no message block for a study that was not shared with a message', () => {
    renderWithRouter(<StudySummary study={newStudy({ share_message: null })} />);
    expect(screen.queryByRole('alert', { name: 'Share message' })).toBeNull();
  });

  it('says who holds the lock and since when', () => {
    const lock = {
      user_name: 'Claire Clinician',
      user_email: 'clinician@demo.local',
      since: '2026-11-24T10:00:00.000Z',
      expires: '2026-11-24T10:15:00.000Z',
    };
    renderWithRouter(<StudySummary study={newStudy({ is_locked: 1, lock })} />);
    const note = screen.getByRole('alert', { name: 'Exam lock' });
    expect(note.textContent).toContain('Being edited by Claire Clinician since');
  });

  it('shows no lock note for a study nobody holds', () => {
    renderWithRouter(<StudySummary study={newStudy({ lock: null })} />);
    expect(screen.queryByRole('alert', { name: 'Exam lock' })).toBeNull();
  });
});
