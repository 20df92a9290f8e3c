import { useSnackbar } from 'notistack';
import { MESSAGES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { useRevokeLink } from '../api/links';

/** Revokes a pending request (link/delete) and says how it went. */
export function useRevokeRequest() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const revoke = useRevokeLink();
  return {
    pending: revoke.isPending,
    revoke: (uuid: string) =>
      revoke.mutate(uuid, {
        onSuccess: () => enqueueSnackbar(t(MESSAGES.requestRevoked), { variant: 'success' }),
        onError: () => enqueueSnackbar(t(MESSAGES.requestRevokeFailed), { variant: 'error' }),
      }),
  };
}
