import { useState } from 'react';
import { Alert, Box, List, ListItem, ListItemText, Switch, Typography } from '@mui/material';
import { useQuery } from '@tanstack/react-query';
import { EVENT_FLAG_LABELS, EVENT_FLAGS, MESSAGES } from '@imaging-inbox/contract';
import type { NotificationPreference } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { errorCode } from '../../../lib/api-error';
import { notificationPreferencesQuery, useSetNotificationPreference } from '../api/notification-preferences';
import type { SetFlagVars } from '../api/notification-preferences';
import { notificationErrorMessage } from '../lib/notification-errors';

const TYPE_LABELS: Record<string, string> = {
  ACCOUNT: 'Account',
  CLOUD: 'Cloud group',
  GATEKEEPER: 'Gatekeeper group',
  LIBRARY: 'Library group',
};

/** The columns of the header and of each row: the group, then one per toggle. */
const ROW_GRID = {
  display: 'grid',
  gridTemplateColumns: `minmax(200px, 1fr) repeat(${EVENT_FLAGS.length}, minmax(110px, 170px))`,
  columnGap: 2,
  alignItems: 'center',
} as const;

/**
 * Notifications tab: per namespace (the account, then each group), whether to be mailed when an
 * exam is shared with me and when one arrives from a DICOM gateway. Each switch saves at once.
 */
export function NotificationsTab() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const prefs = useQuery(notificationPreferencesQuery());
  const setFlag = useSetNotificationPreference();
  const [failure, setFailure] = useState<string | null>(null);

  const change = async (vars: SetFlagVars) => {
    setFailure(null);
    try {
      await setFlag.mutateAsync(vars);
      enqueueSnackbar(t(MESSAGES.changesSaved), { variant: 'success' });
    } catch (error) {
      setFailure(notificationErrorMessage(errorCode(error)));
    }
  };

  if (prefs.isPending) return <Loading />;
  if (prefs.isError) return <UnexpectedErrorAlert />;
  return (
    <Box>
      <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
        {t('Choose which e-mails you receive for each group. The e-mails contain no patient details.')}
      </Typography>
      {failure && (
        <Alert severity="error" onClose={() => setFailure(null)} sx={{ mb: 1 }}>
          {t(failure)}
        </Alert>
      )}
      {prefs.data.length === 0 && <Typography>{t(MESSAGES.notificationsNone)}</Typography>}
      {prefs.data.length > 0 && (
        // The toggles' names head their columns once (each switch also carries its own name), so a
        // row holds the group and its switches on one line in every language at 1280 px; three
        // labelled switches beside the name took two rows in French.
        <Box aria-hidden sx={{ ...ROW_GRID, px: 2, pt: 1 }}>
          <span />
          {EVENT_FLAGS.map((flag) => (
            <Typography key={flag} variant="body2" sx={{ fontWeight: 500, textAlign: 'center' }}>
              {t(EVENT_FLAG_LABELS[flag])}
            </Typography>
          ))}
        </Box>
      )}
      <List aria-label={t('Notification preferences')}>
        {prefs.data.map((pref) => (
          <PreferenceRow key={pref.namespace_id} pref={pref} onChange={(vars) => void change(vars)} />
        ))}
      </List>
    </Box>
  );
}

function PreferenceRow({
  pref,
  onChange,
}: {
  pref: NotificationPreference;
  onChange: (vars: SetFlagVars) => void;
}) {
  const { t } = useTranslation();
  const locked = pref.can_modify !== 1;
  return (
    <ListItem divider sx={ROW_GRID} data-namespace={pref.namespace_id}>
      <ListItemText
        primary={pref.name}
        secondary={
          locked
            ? `${t(TYPE_LABELS[pref.type] ?? pref.type)} · ${t('Ask your administrator to change these')}`
            : t(TYPE_LABELS[pref.type] ?? pref.type)
        }
      />
      {EVENT_FLAGS.map((flag) => (
        <Switch
          key={flag}
          sx={{ justifySelf: 'center' }}
          checked={pref[flag] === 1}
          disabled={locked}
          slotProps={{
            input: { 'aria-label': `${t(EVENT_FLAG_LABELS[flag])} — ${pref.name}` },
          }}
          onChange={(e) =>
            onChange({ namespaceId: pref.namespace_id, flag, value: e.target.checked ? 1 : 0 })
          }
        />
      ))}
    </ListItem>
  );
}
