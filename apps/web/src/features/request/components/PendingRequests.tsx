import { useState } from 'react';
import { Stack, Table, TableBody, TableCell, TableHead, TableRow } from '@mui/material';
import { DEFAULT_LINK_SORT, linkExpiryDays, type LinkSort } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { useDateDisplay } from '../../../lib/date-preferences';
import { PagePanel } from '../../../components/PagePanel';
import { ScrollTable } from '../../../components/ScrollTable';
import { useInbox } from '../../../session/inbox-context';
import type { InboxGroup } from '../../../session/groups';
import { usePendingRequests } from '../api/links';
import { RequestSortField } from './RequestSortField';
import { useRevokeRequest } from './use-revoke-request';
import { PendingRequestsNotice, RevokeRequestButton } from './PendingRequestParts';

/** The Pending Requests state of a cloud group: its live request links, sortable and revocable. */
export function PendingRequests({ group }: { group: InboxGroup }) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const { account } = useInbox();
  const [sort, setSort] = useState<LinkSort>(DEFAULT_LINK_SORT);
  const links = usePendingRequests(account.uuid, group.namespaceId, sort);
  const revoke = useRevokeRequest();
  const now = Date.now();

  return (
    <PagePanel title={t('Pending Requests')}>
      <Stack direction="row" sx={{ justifyContent: 'flex-end', mb: 2 }}>
        <RequestSortField value={sort} onChange={setSort} />
      </Stack>
      <PendingRequestsNotice failed={links.isError} empty={links.data?.length === 0} />
      {!!links.data?.length && (
        <ScrollTable label={t('Pending Requests')}>
          <Table size="small" stickyHeader aria-label={t('Pending Requests')}>
            <TableHead>
              <TableRow>
                <TableCell>{t('Email')}</TableCell>
                <TableCell>{t('Mobile phone')}</TableCell>
                <TableCell>{t('Description')}</TableCell>
                <TableCell>{t('Share description')}</TableCell>
                <TableCell>{t('Created')}</TableCell>
                <TableCell>{t('Expires in (days)')}</TableCell>
                <TableCell />
              </TableRow>
            </TableHead>
            <TableBody>
              {links.data.map((link) => (
                <TableRow key={link.uuid}>
                  <TableCell>{link.email}</TableCell>
                  <TableCell>{link.mobile_phone ?? ''}</TableCell>
                  <TableCell>{link.description ?? ''}</TableCell>
                  <TableCell>{link.share_description ?? ''}</TableCell>
                  <TableCell>{dates.timestamp(new Date(link.created).toISOString())}</TableCell>
                  <TableCell>{linkExpiryDays(link.created, link.minutes_alive, now)}</TableCell>
                  <TableCell align="right">
                    <RevokeRequestButton link={link} revoke={revoke} />
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </ScrollTable>
      )}
    </PagePanel>
  );
}
