import {
  useId,
  type AnchorHTMLAttributes,
  type ButtonHTMLAttributes,
  type InputHTMLAttributes,
  type ReactNode,
} from 'react';
import './plain.css';

/**
 * The few controls the sign-in page draws, as plain elements with one static style sheet
 * (plain.css) that copies what MUI draws with the app's theme: the card, an outlined field with
 * its floating label, the contained button, a link-styled button, an alert. The page's first visit
 * then loads neither MUI nor emotion, about half of its scripts (decision 0075). The class names
 * are the page's own (`si-`), so MUI's styles never apply to these elements nor these to MUI's.
 */

const cx = (...names: (string | false | undefined)[]) => names.filter(Boolean).join(' ');

/** The page: a grey background with the narrow white card centred, its title as the page's heading. */
export function SignInCard({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="si-page">
      <div className="si-card">
        <h1 className="si-title">{title}</h1>
        {children}
      </div>
    </main>
  );
}

/** Children in a column 16 px apart (MUI's Stack with spacing 2). */
export function Column({ children }: { children: ReactNode }) {
  return <div className="si-column">{children}</div>;
}

/** A paragraph in the body text (Typography body1). */
export function Text({ children }: { children: ReactNode }) {
  return <p className="si-text">{children}</p>;
}

type Severity = 'success' | 'info' | 'warning' | 'error';

// MUI's own outlined icons (material/internal/svg-icons), so an alert looks as the inbox's do.
const ICONS: Record<Severity, string> = {
  success:
    'M20,12A8,8 0 0,1 12,20A8,8 0 0,1 4,12A8,8 0 0,1 12,4C12.76,4 13.5,4.11 14.2, 4.31L15.77,2.74C14.61,2.26 13.34,2 12,2A10,10 0 0,0 2,12A10,10 0 0,0 12,22A10,10 0 0, 0 22,12M7.91,10.08L6.5,11.5L11,16L21,6L19.59,4.58L11,13.17L7.91,10.08Z',
  info: 'M11,9H13V7H11M12,20C7.59,20 4,16.41 4,12C4,7.59 7.59,4 12,4C16.41,4 20,7.59 20, 12C20,16.41 16.41,20 12,20M12,2A10,10 0 0,0 2,12A10,10 0 0,0 12,22A10,10 0 0,0 22,12A10, 10 0 0,0 12,2M11,17H13V11H11V17Z',
  warning: 'M12 5.99L19.53 19H4.47L12 5.99M12 2L1 21h22L12 2zm1 14h-2v2h2v-2zm0-6h-2v4h2v-4z',
  error:
    'M11 15h2v2h-2zm0-8h2v6h-2zm.99-5C6.47 2 2 6.48 2 12s4.47 10 9.99 10C17.52 22 22 17.52 22 12S17.52 2 11.99 2zM12 20c-4.42 0-8-3.58-8-8s3.58-8 8-8 8 3.58 8 8-3.58 8-8 8z',
};

/** An alert (role "alert", as MUI's): icon, message and an optional action on the right. */
export function Notice({
  severity,
  action,
  children,
}: {
  severity: Severity;
  action?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div role="alert" className={`si-alert si-alert-${severity}`}>
      <div className="si-alert-icon">
        <svg focusable="false" aria-hidden="true" viewBox="0 0 24 24">
          <path d={ICONS[severity]} />
        </svg>
      </div>
      <div className="si-alert-message">{children}</div>
      {action && <div className="si-alert-action">{action}</div>}
    </div>
  );
}

interface FieldProps extends Omit<InputHTMLAttributes<HTMLInputElement>, 'size' | 'value'> {
  label: string;
  value: string;
  error?: boolean;
  helperText?: string;
}

/**
 * An outlined field whose label sits in the box until the field is focused, filled or autofilled,
 * then moves onto the border (MUI's OutlinedInput with InputLabel). The notch behind the moved
 * label is a legend as wide as the label, as MUI draws it.
 */
export function Field({ label, value, error, helperText, required, id, className, ...input }: FieldProps) {
  const generated = useId();
  const inputId = id ?? generated;
  const helperId = `${inputId}-helper`;
  return (
    <div className={cx('si-field', error && 'si-error', value !== '' && 'si-filled', className)}>
      <label className="si-label" htmlFor={inputId}>
        {label}
        {required && <span aria-hidden="true">{'\u2009*'}</span>}
      </label>
      <div className="si-input-box">
        <input
          {...input}
          id={inputId}
          className="si-input"
          value={value}
          required={required}
          aria-invalid={error || undefined}
          aria-describedby={helperText ? helperId : undefined}
        />
        <fieldset aria-hidden="true" className="si-outline">
          <legend>
            {/* As wide as MUI drew it for these fields: the label, its asterisk, and MUI's own. */}
            <span>{required ? `${label} *\u2009*` : label}</span>
          </legend>
        </fieldset>
      </div>
      {helperText && (
        <p className="si-helper" id={helperId}>
          {helperText}
        </p>
      )}
    </div>
  );
}

/** The circling spinner MUI draws (CircularProgress), `size` px wide, in the current colour. */
export function Spinner({ size, labelledBy }: { size: number; labelledBy?: string }) {
  return (
    <span
      className="si-spinner"
      role="progressbar"
      aria-labelledby={labelledBy}
      style={{ width: size, height: size }}
    >
      <svg viewBox="22 22 44 44">
        <circle cx="44" cy="44" r="20.2" fill="none" strokeWidth="3.6" />
      </svg>
    </span>
  );
}

/**
 * The contained primary button (size large by default); `loading` disables it and puts the
 * spinner over its hidden label, as MUI's `loading` does.
 */
export function PrimaryButton({
  loading = false,
  large = true,
  children,
  disabled,
  id,
  ...button
}: ButtonHTMLAttributes<HTMLButtonElement> & { loading?: boolean; large?: boolean }) {
  const generated = useId();
  const buttonId = id ?? generated;
  return (
    <button
      type="button"
      {...button}
      id={buttonId}
      disabled={disabled || loading}
      className={cx('si-button', large && 'si-button-large', loading && 'si-loading')}
    >
      {loading && (
        <span className="si-button-spinner">
          <Spinner size={16} labelledBy={buttonId} />
        </span>
      )}
      {children}
    </button>
  );
}

/** A button that reads as a link (MUI's Link with component="button"). */
export function LinkButton({ children, ...button }: ButtonHTMLAttributes<HTMLButtonElement>) {
  return (
    <button type="button" {...button} className="si-link">
      {children}
    </button>
  );
}

/** A link drawn as a small text button inside an alert (MUI's Button color="inherit" size="small"). */
export function AlertActionLink({ children, ...link }: AnchorHTMLAttributes<HTMLAnchorElement>) {
  return (
    <a {...link} className="si-action">
      {children}
    </a>
  );
}

/** Waiting for a part of the page: the spinner and a label, announced politely (components/Loading). */
export function Waiting({ label }: { label: string }) {
  return (
    <div role="status" aria-live="polite" className="si-waiting">
      <span className="si-waiting-spinner" aria-hidden="true">
        <Spinner size={40} />
      </span>
      <p className="si-text si-secondary">{label}</p>
    </div>
  );
}
