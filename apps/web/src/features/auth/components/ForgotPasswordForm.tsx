import { useState, type FormEvent } from 'react';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { Column, Field, LinkButton, Notice, PrimaryButton } from '../../../components/plain/kit';
import { errorCode } from '../../../lib/api-error';
import { usePasswordLost } from '../api/password-lost';
import { UnexpectedNotice } from './UnexpectedNotice';
import { passwordLostSchema } from '../schemas';

/** The message of the e-mail rule the address breaks, or undefined when it is a valid address. */
function emailError(email: string): string | undefined {
  const parsed = passwordLostSchema.safeParse({ email });
  return parsed.success ? undefined : parsed.error.issues[0]?.message;
}

/**
 * Password recovery. The confirmation is neutral on purpose: it never tells whether the address has
 * a login, and a 412 from the server is shown the same way. Drawn with the sign-in page's plain
 * controls (components/plain); the error shows after the first attempt and then follows the typing.
 */
export function ForgotPasswordForm({ onBack }: { onBack: () => void }) {
  const { t } = useTranslation();
  const lost = usePasswordLost();
  const [email, setEmail] = useState('');
  const [attempted, setAttempted] = useState(false);
  const error = attempted ? emailError(email) : undefined;

  const sent = lost.isSuccess || (lost.isError && errorCode(lost.error) === 'NOT_FOUND');
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    setAttempted(true);
    const parsed = passwordLostSchema.safeParse({ email });
    if (!parsed.success) {
      // Where the message is, as a screen reader user needs it.
      const input = event.currentTarget.elements.namedItem('email');
      if (input instanceof HTMLInputElement) input.focus();
      return;
    }
    lost.mutate(parsed.data);
  };

  return (
    <form noValidate onSubmit={onSubmit} aria-label={t('Password recovery')}>
      <Column>
        <h2 className="si-h6">{t('Password recovery')}</h2>
        {sent && <Notice severity="success">{t(MESSAGES.passwordLostSent)}</Notice>}
        {lost.isError && !sent && <UnexpectedNotice />}
        <Field
          name="email"
          label={t('Email')}
          type="email"
          autoComplete="email"
          autoFocus
          required
          value={email}
          onChange={(e) => setEmail(e.target.value)}
          error={error !== undefined}
          helperText={error !== undefined ? t(error) : undefined}
        />
        <PrimaryButton type="submit" large={false} loading={lost.isPending}>
          {t('Send')}
        </PrimaryButton>
        <LinkButton onClick={onBack}>{t('Back to sign in')}</LinkButton>
      </Column>
    </form>
  );
}
