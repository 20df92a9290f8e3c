import { afterEach, describe, expect, it } from 'vitest';
import { render, screen } from '@testing-library/react';
import { setLanguage } from '../../../lib/i18n';
import { newStudy } from '../../../test/factories';
import { StudyStatusIcons } from './StudyStatusIcons';

const nominated = (status: string) =>
  newStudy({
    customfields: [
      { name: 'nominated_at', value: new Date(Date.now() - 60_000).toISOString() },
      { name: 'nomination_push_status', value: status },
    ],
  });

describe('StudyStatusIcons', () => {
  afterEach(async () => {
    await setLanguage('en');
  });

  it("shows the nominator's exam's PACS status as a named icon: nominated, queued, sent, failed", () => {
    const { rerender } = render(<StudyStatusIcons study={nominated('')} />);
    expect(screen.getByRole('img', { name: 'Nominated' })).toBeTruthy();
    rerender(<StudyStatusIcons study={nominated('I')} />);
    expect(screen.getByRole('img', { name: 'Queued for PACS' })).toBeTruthy();
    rerender(<StudyStatusIcons study={nominated('S')} />);
    expect(screen.getByRole('img', { name: 'Sent to PACS' })).toBeTruthy();
    expect(screen.queryByRole('img', { name: 'Nominated' })).toBeNull();
    rerender(<StudyStatusIcons study={nominated('F')} />);
    expect(screen.getByRole('img', { name: 'Sending to PACS failed' })).toBeTruthy();
  });

  it('names the icons in French', async () => {
    await setLanguage('fr');
    render(<StudyStatusIcons study={nominated('I')} />);
    expect(screen.getByRole('img', { name: 'En file d’attente pour le PACS' })).toBeTruthy();
  });
});
