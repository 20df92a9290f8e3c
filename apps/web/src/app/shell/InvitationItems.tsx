import { ListSubheader, MenuItem } from '@mui/material';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../lib/i18n';
import { useAnswerInvitation, useInvitations } from '../../session/api/invitations';

/**
 * The user menu's pending invitations from other accounts, each accepted or declined here: one
 * grants nothing until accepted (decision 0052). Answered as an array of items, not a component:
 * MUI's Menu wants its items as direct children.
 */
export function useInvitationItems(close: () => void) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const invitations = useInvitations().data?.invitations ?? [];
  const answer = useAnswerInvitation();
  if (!invitations.length) return [];
  const reply = (accountId: string, accept: boolean) => {
    close();
    answer.mutate(
      { accountId, accept },
      {
        onSuccess: () =>
          enqueueSnackbar(accept ? t('Invitation accepted') : t('Invitation declined'), {
            variant: 'success',
          }),
        onError: () => enqueueSnackbar(t('The invitation was not answered'), { variant: 'error' }),
      },
    );
  };
  return [
    <ListSubheader key="invitations">{t('Invitations')}</ListSubheader>,
    ...invitations.flatMap((i) => [
      <MenuItem key={`accept-${i.account_id}`} onClick={() => reply(i.account_id, true)}>
        {t('Accept the invitation of {{account}}', { account: i.name })}
      </MenuItem>,
      <MenuItem key={`decline-${i.account_id}`} onClick={() => reply(i.account_id, false)}>
        {t('Decline the invitation of {{account}}', { account: i.name })}
      </MenuItem>,
    ]),
  ];
}
