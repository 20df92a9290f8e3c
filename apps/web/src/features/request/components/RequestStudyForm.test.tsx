import { describe, expect, it, vi } from 'vitest';
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { RequestStudyForm } from './RequestStudyForm';

const field = (name: RegExp) => screen.getByLabelText(name);

describe('RequestStudyForm', () => {
  it('keeps submit disabled until valid, shows the messages, and fills duration from a hint', async () => {
    const onSubmit = vi.fn();
    render(<RequestStudyForm disabled={false} loading={false} onSubmit={onSubmit} />);
    const submit = screen.getByRole('button', { name: 'Request Study' });
    expect(submit).toHaveProperty('disabled', true);

    fireEvent.change(field(/^Email/), { target: { value: 'bad' } });
    expect(await screen.findByText('Invalid email')).toBeTruthy();
    fireEvent.change(field(/^Email/), { target: { value: 'sender@hospital.example' } });
    fireEvent.change(field(/^Maximum hits/), { target: { value: '0' } });
    expect(await screen.findByText('Must be a number greater than 0')).toBeTruthy();
    fireEvent.change(field(/^Maximum hits/), { target: { value: '2147483647' } });
    expect(await screen.findByText('Maximum value exceeded')).toBeTruthy();
    fireEvent.change(field(/^Maximum hits/), { target: { value: '5' } });
    fireEvent.click(screen.getByText('24 hours (1440 minutes)'));
    await waitFor(() => expect(field(/^Maximum duration/)).toHaveProperty('value', '1440'));
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));

    fireEvent.change(field(/^Mobile phone/), { target: { value: '555' } });
    expect(await screen.findByText(/Please enter a valid phone number/)).toBeTruthy();
    await waitFor(() => expect(submit).toHaveProperty('disabled', true));
    fireEvent.change(field(/^Mobile phone/), { target: { value: '+14155552671' } });
    fireEvent.change(field(/^Share description/), { target: { value: 'Knee MRI for the referral' } });
    await waitFor(() => expect(submit).toHaveProperty('disabled', false));

    fireEvent.click(submit);
    await waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit.mock.calls[0]?.[0]).toMatchObject({
      email: 'sender@hospital.example',
      maximumHits: '5',
      maximumDuration: '1440',
      mobilePhone: '+14155552671',
      shareDescription: 'Knee MRI for the referral',
    });
  });

  it('stays disabled when the group is missing or not permitted', () => {
    render(<RequestStudyForm disabled loading={false} onSubmit={vi.fn()} />);
    expect(screen.getByRole('button', { name: 'Request Study' })).toHaveProperty('disabled', true);
    expect(field(/^Email/)).toHaveProperty('disabled', true);
  });
});
