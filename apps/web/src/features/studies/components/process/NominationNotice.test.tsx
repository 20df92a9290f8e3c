import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { screen } from '@testing-library/react';
import { apiStub, renderWithRouter } from '../../../../test/render';
import { newStudy } from '../../../../test/factories';
import { NominationNotice } from './NominationNotice';

const study = newStudy({
  uuid: 's1',
  study_push_status: [
    {
      destination_id: 'd1',
      destination_name: 'Hospital PACS',
      status: 'F',
      reason: 'Hospital PACS did not answer',
      updated: new Date(Date.now() - 60_000).toISOString(),
    },
  ],
});

describe('NominationNotice', () => {
  beforeEach(() => {
    sessionStorage.setItem('sid', 'S1');
    vi.stubGlobal('fetch', apiStub({}));
  });
  afterEach(() => vi.unstubAllGlobals());

  // Colour is never the only signal of a state (WCAG 1.4.1): each state has its own icon and words.
  it.each([
    ['Queued', 'ScheduleIcon', 'This exam is queued to be sent to PACS'],
    ['Completed', 'CheckCircleIcon', 'This exam was sent to PACS'],
    ['Failed', 'ErrorIcon', 'Sending this exam to PACS failed'],
    ['Rejected', 'BlockIcon', 'This exam was rejected'],
  ] as const)('tells %s by an icon and its title, as an alert read when it appears', (state, icon, title) => {
    renderWithRouter(<NominationNotice study={study} state={state} />);
    const notice = screen.getByRole('alert', { name: 'Exam state' });
    expect(notice.querySelector(`[data-testid="${icon}"]`)).not.toBeNull();
    expect(notice.textContent).toContain(title);
  });
});
