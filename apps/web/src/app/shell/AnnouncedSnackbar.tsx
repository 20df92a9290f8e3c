import { forwardRef, type ReactNode } from 'react';
import { SnackbarContent, type CustomContentProps, type VariantType } from 'notistack';
import { SnackbarContent as Content } from '@mui/material';
import CheckCircle from '@mui/icons-material/CheckCircle';
import ErrorIcon from '@mui/icons-material/Error';
import Info from '@mui/icons-material/Info';
import Warning from '@mui/icons-material/Warning';

/**
 * Each kind's colour (white text reads at 4.5:1 or more on each) and its icon, so the kind is never
 * told by colour alone.
 */
const LOOK: Record<VariantType, { bgcolor: string; icon: ReactNode }> = {
  default: { bgcolor: 'grey.800', icon: null },
  success: { bgcolor: 'success.dark', icon: <CheckCircle fontSize="small" /> },
  error: { bgcolor: 'error.dark', icon: <ErrorIcon fontSize="small" /> },
  warning: { bgcolor: 'warning.dark', icon: <Warning fontSize="small" /> },
  info: { bgcolor: 'info.dark', icon: <Info fontSize="small" /> },
};

let region: HTMLElement | undefined;

/**
 * Where snackbars are drawn: one polite live region (role=status) that stays in the page. A screen
 * reader reads what is added to a live region that was already there; a snackbar appearing with its
 * own region and its text inside is not reliably read.
 */
export function snackbarLiveRegion(): HTMLElement {
  if (!region || !region.isConnected) {
    region = document.createElement('div');
    region.setAttribute('role', 'status');
    region.setAttribute('aria-live', 'polite');
    region.dataset.testid = 'snackbar-region';
    document.body.appendChild(region);
  }
  return region;
}

/**
 * One snackbar, drawn inside the live region: an error is an alert, read at once. Unlike notistack's
 * own, it carries no fixed id, so stacked snackbars never share one.
 */
export const AnnouncedSnackbar = forwardRef<HTMLDivElement, CustomContentProps>(function AnnouncedSnackbar(
  { id, message, variant, action, style, className },
  ref,
) {
  const look = LOOK[variant];
  return (
    <SnackbarContent ref={ref} style={style} className={className}>
      <Content
        role={variant === 'error' ? 'alert' : 'none'}
        data-variant={variant}
        sx={{ bgcolor: look.bgcolor, color: 'common.white', minWidth: 288 }}
        message={
          <span style={{ display: 'inline-flex', alignItems: 'center', gap: 8 }}>
            {look.icon}
            {message}
          </span>
        }
        action={typeof action === 'function' ? action(id) : action}
      />
    </SnackbarContent>
  );
});

/** The snackbar of every kind. */
export const ANNOUNCED_SNACKBARS: Record<VariantType, typeof AnnouncedSnackbar> = {
  default: AnnouncedSnackbar,
  success: AnnouncedSnackbar,
  error: AnnouncedSnackbar,
  warning: AnnouncedSnackbar,
  info: AnnouncedSnackbar,
};
