import { useState } from 'react';
import { Link as RouterLink } from 'react-router';
import { Button, Stack, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { DEFAULT_LINK_SORT, linkExpiryDays, type LinkSort } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { ScrollTable } from '../../../components/ScrollTable';
import { useInbox } from '../../../session/inbox-context';
import { PENDING_REQUESTS, groupDisplayName } from '../../../session/groups';
import { usePendingRequests } from '../api/links';
import { RequestSortField } from './RequestSortField';
import { useRevokeRequest } from './use-revoke-request';
import { PendingRequestsNotice, RevokeRequestButton } from './PendingRequestParts';

/**
 * The Pending Requests tab of an exam (SPEC.md section 2): the request links still open for the
 * exam's group, narrow enough for the details panel (who was asked, what for, days left) in one
 * column, with
 * revoke, a new request and the group's full Pending Requests page a click away.
 */
export function PendingRequestsTab({ namespaceId }: { namespaceId: string }) {
  const { t } = useTranslation();
  const { account, groups } = useInbox();
  const group = groups.find((g) => g.type === 'CLOUD' && g.namespaceId === namespaceId);
  const [sort, setSort] = useState<LinkSort>(DEFAULT_LINK_SORT);
  const links = usePendingRequests(account.uuid, namespaceId, sort);
  const revoke = useRevokeRequest();
  const now = Date.now();

  return (
    <Stack spacing={2}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 1 }}>
        <RequestSortField value={sort} onChange={setSort} />
        {group && (
          <Button component={RouterLink} to={`/study/request/${encodeURIComponent(group.uuid)}`}>
            {t('Request Study')}
          </Button>
        )}
      </Stack>
      <PendingRequestsNotice failed={links.isError} empty={links.data?.length === 0} />
      {!!links.data?.length && (
        <ScrollTable label={t('Pending Requests')}>
          <Table size="small" stickyHeader aria-label={t('Pending Requests')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('Email')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {links.data.map((link) => (
                <TableRow key={link.uuid}>
                  <TableCell sx={{ overflowWrap: 'anywhere' }}>
                    {link.email}
                    {link.description && (
                      <Typography variant="body2" color="text.secondary">
                        {link.description}
                      </Typography>
                    )}
                    <Typography variant="body2" color="text.secondary">
                      {t('Expires in {{count}} days', {
                        count: linkExpiryDays(link.created, link.minutes_alive, now),
                      })}
                    </Typography>
                  </TableCell>
                  <TableCell align="right" padding="none">
                    <RevokeRequestButton link={link} revoke={revoke} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
      {group && (
        <Button
          component={RouterLink}
          to={`/group/${encodeURIComponent(group.uuid)}/${encodeURIComponent(PENDING_REQUESTS)}`}
          sx={{ alignSelf: 'flex-start' }}
        >
          {t('All pending requests of {{group}}', { group: groupDisplayName(group) })}
        </Button>
      )}
    </Stack>
  );
}
