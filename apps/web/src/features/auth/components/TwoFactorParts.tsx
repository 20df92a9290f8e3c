import type { TotpEnrolment } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { Notice } from '../../../components/plain/kit';

/**
 * The sign-in page's QR code and recovery codes, drawn as Account settings draws them
 * (components/TotpEnrolmentCard and RecoveryCodesList) but without MUI, as the rest of the page.
 */
export function SignInTotpEnrolment({ enrolment }: { enrolment: TotpEnrolment }) {
  const { t } = useTranslation();
  const secret = enrolment.secret.replace(/(.{4})/g, '$1 ').trim();
  return (
    <div className="si-totp">
      <img
        className="si-qr"
        src={`data:image/svg+xml;charset=utf-8,${encodeURIComponent(enrolment.qr_svg)}`}
        alt={t('QR code to scan with your authenticator app')}
      />
      <div className="si-totp-text">
        <p className="si-body2">
          {t(
            'Scan this code with an authenticator app (Microsoft Authenticator, Google Authenticator, FreeOTP…).',
          )}
        </p>
        {/* Not grey: Account settings' card asks MUI for text.secondary here, which MUI 9 does not apply. */}
        <p className="si-body2">{t('Or type this key in the app:')}</p>
        <code className="si-secret" data-testid="totp-secret">
          {secret}
        </code>
      </div>
    </div>
  );
}

/** The ten recovery codes, shown once: the server keeps only their hashes. */
export function SignInRecoveryCodes({ codes }: { codes: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <section aria-labelledby="recovery-codes-title">
      <h2 id="recovery-codes-title" className="si-subtitle">
        {t('Recovery codes')}
      </h2>
      <div className="si-recovery-warning">
        <Notice severity="warning">
          {t(
            'Keep these codes somewhere safe. Each signs you in once without your phone; they are not shown again.',
          )}
        </Notice>
      </div>
      <ol className="si-codes" data-testid="recovery-codes">
        {codes.map((code) => (
          <li key={code}>{code}</li>
        ))}
      </ol>
    </section>
  );
}
