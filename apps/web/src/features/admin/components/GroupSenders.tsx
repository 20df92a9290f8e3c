import { useState } from 'react';
import { Alert, Button, Stack, TextField } from '@mui/material';
import type { AdminGroup } from '@imaging-inbox/contract';
import { isAeTitle } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { AdminTable } from '../../../components/AdminTable';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import type { DicomNode } from '@imaging-inbox/contract';
import { useAddDicomNode, useDeleteDicomNode, useDicomNodes } from '../api/group-settings';
import { useAccountGroups } from '../api/groups';
import { NodePeerDialog } from './NodePeerDialog';

/**
 * The DICOM senders (modalities, gateways) registered to deliver into a cloud group: AE title and
 * address, added and removed by account admins, and what each may query and retrieve as a DICOM
 * peer (groups, retrieve, C-MOVE port; decision 0061), edited in NodePeerDialog.
 */
export function GroupSenders({ group, mayEdit }: { group: AdminGroup; mayEdit: boolean }) {
  const { t } = useTranslation();
  const nodes = useDicomNodes(group.account_id);
  const groups = useAccountGroups(group.account_id);
  const [peer, setPeer] = useState<DicomNode | null>(null);
  const add = useAddDicomNode();
  const remove = useDeleteDicomNode();
  const [aeTitle, setAeTitle] = useState('');
  const [host, setHost] = useState('');
  const [name, setName] = useState('');
  const aeProblem =
    aeTitle.trim() && !isAeTitle(aeTitle.trim()) ? 'Up to 16 characters, no backslash.' : null;
  const refused = errorBody(add.error);

  if (nodes.isPending) return <Loading />;
  if (nodes.isError) return <UnexpectedErrorAlert />;
  const mine = nodes.data.filter((n) => n.group_id === group.uuid);
  return (
    <Stack spacing={2}>
      <AdminTable
        label={t('DICOM senders of {{name}}', { name: group.name })}
        rows={mine}
        rowKey={(n) => n.uuid}
        emptyText={t('No DICOM sender delivers into this group.')}
        columns={[
          { label: t('Name'), cell: (n) => n.name },
          { label: t('AE title'), cell: (n) => n.ae_title },
          { label: t('Address'), cell: (n) => (n.host === '*' ? t('Any address') : n.host) },
          {
            label: t('May query'),
            cell: (n) =>
              n.query_group_ids.length === 0
                ? t('Nothing')
                : n.query_group_ids
                    .map((id) => groups.data?.find((g) => g.uuid === id)?.name ?? id)
                    .join(', '),
          },
          { label: t('May retrieve'), cell: (n) => (n.may_retrieve === 1 ? t('Yes') : t('No')) },
          { label: t('C-MOVE port'), cell: (n) => (n.port === null ? '—' : String(n.port)) },
        ]}
        actions={
          mayEdit
            ? (n) => (
                <Button size="small" onClick={() => setPeer(n)}>
                  {t('Query/retrieve…')}
                </Button>
              )
            : undefined
        }
        remove={
          mayEdit
            ? {
                label: (n) => t('Delete {{name}}', { name: n.name }),
                // A sender that is also a destination is removed with the destination.
                disabled: (n) => n.destination_id !== null,
                onDelete: (n) => remove.mutate(n.uuid),
              }
            : undefined
        }
      />
      {mayEdit && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'flex-start' } }}>
          <TextField
            size="small"
            label={t('AE title')}
            value={aeTitle}
            onChange={(e) => setAeTitle(e.target.value)}
            error={Boolean(aeProblem)}
            helperText={aeProblem ? t(aeProblem) : undefined}
          />
          <TextField
            size="small"
            label={t('Address')}
            placeholder={t('10.0.0.7 or *')}
            value={host}
            onChange={(e) => setHost(e.target.value)}
          />
          <TextField size="small" label={t('Name')} value={name} onChange={(e) => setName(e.target.value)} />
          <Button
            variant="outlined"
            disabled={!aeTitle.trim() || !host.trim() || Boolean(aeProblem) || add.isPending}
            onClick={() =>
              add.mutate(
                {
                  account_id: group.account_id,
                  group_id: group.uuid,
                  ae_title: aeTitle.trim(),
                  host: host.trim(),
                  name: name.trim() || undefined,
                },
                {
                  onSuccess: () => {
                    setAeTitle('');
                    setHost('');
                    setName('');
                  },
                },
              )
            }
          >
            {t('Add sender')}
          </Button>
        </Stack>
      )}
      {peer && <NodePeerDialog node={peer} onClose={() => setPeer(null)} />}
      {add.isError && (
        <Alert severity="error">
          {typeof refused?.error_data === 'string'
            ? `${refused.error_subtype ?? ''}: ${refused.error_data}`
            : t('The sender was not saved')}
        </Alert>
      )}
    </Stack>
  );
}
