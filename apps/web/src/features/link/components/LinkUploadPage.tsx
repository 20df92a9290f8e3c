import { useRef, useState } from 'react';
import { useParams } from 'react-router';
import { Alert, Stack, Typography } from '@mui/material';
import { useTranslation } from '../../../lib/i18n';
import { CenteredCard } from '../../../components/CenteredCard';
import { Loading } from '../../../components/Loading';
import { linkErrorCode, useLinkInfo, useUnlockLink } from '../api/link-public';
import { saveGrant, savedGrant } from '../lib/link-grant';
import { linkErrorMessage } from '../lib/link-messages';
import { LinkPasswordForm } from './LinkPasswordForm';
import { LinkUploadPanel } from './LinkUploadPanel';

/** `/link/{token}`: the public page a mailed request-study link opens; no account needed. */
export function LinkUploadPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const info = useLinkInfo(token);
  const unlock = useUnlockLink();
  // A reload of this tab keeps its grant: no second hit, and unfinished uploads go on.
  const [grant, setGrant] = useState<string | null>(() => savedGrant(token));
  // One grant per page visit: a second batch of files stays in the same upload session (one hit).
  const pendingGrant = useRef<Promise<string> | null>(null);

  if (info.isPending) return <Loading />;
  if (info.isError) {
    return (
      <CenteredCard title={t('Upload exams')}>
        <Alert severity="error">{t(linkErrorMessage(linkErrorCode(info.error)))}</Alert>
      </CenteredCard>
    );
  }

  const openSession = (password: string) =>
    unlock.mutateAsync({ token, password }).then((answer) => {
      saveGrant(token, answer.grant, answer.expires);
      setGrant(answer.grant);
      return answer.grant;
    });
  const getGrant = () => {
    if (grant) return Promise.resolve(grant);
    pendingGrant.current ??= openSession('').catch((error: unknown) => {
      pendingGrant.current = null;
      throw error;
    });
    return pendingGrant.current;
  };
  const link = info.data;
  const locked = link.needs_password && grant === null;

  return (
    // Wide enough for the table of the studies found.
    <CenteredCard title={t('Upload exams')} maxWidth={680}>
      <Stack spacing={2}>
        <Typography>
          {t('{{name}} asks you to upload imaging exams to {{group}}.', {
            name: link.requester_name,
            group: link.namespace_name,
          })}
        </Typography>
        {link.description && (
          <Typography color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
            {link.description}
          </Typography>
        )}
        {locked ? (
          <LinkPasswordForm
            pending={unlock.isPending}
            errorCode={unlock.isError ? linkErrorCode(unlock.error) : null}
            onUnlock={(password) => void openSession(password).catch(() => undefined)}
          />
        ) : (
          <LinkUploadPanel
            grant={getGrant}
            scope={`link:${token.slice(0, 16)}`}
            acceptsDocuments={link.accepts_documents}
          />
        )}
      </Stack>
    </CenteredCard>
  );
}
