import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  IconButton,
  Stack,
  Tab,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Tabs,
  Typography,
} from '@mui/material';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import { useSnackbar } from 'notistack';
import type { AdminGroup } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useAccountGroups, useDeleteGroup } from '../api/groups';
import { useRoles } from '../api/roles';
import { GROUP_TYPE_LABELS, GroupDialog } from './GroupDialog';
import { CustomFieldsPanel } from './CustomFieldsPanel';
import { GroupMembers } from './GroupMembers';
import { GroupSenders } from './GroupSenders';
import { GroupWorkflow } from './GroupWorkflow';

type TabName = 'members' | 'senders' | 'workflow';

/** Why a group was not deleted, in words. */
function deleteRefusal(error: unknown): string {
  const body = errorBody(error);
  if (body?.error_type === 'NOT_EMPTY') return 'The group holds exams: it cannot be deleted.';
  if (body?.error_subtype === 'senders') return 'A DICOM sender delivers into this group: change it first.';
  if (body?.error_type === 'IN_USE') return 'Something still delivers into this group: it cannot be deleted.';
  return 'Failed to delete the group';
}

/**
 * Administration → Groups (/organization/groups.html): the account's groups to list, add, rename
 * and delete (not while they hold exams), each group's members with their roles, and for account
 * admins a cloud group's DICOM senders and promote-to-PACS list, a gatekeeper group's configuration.
 */
export function GroupsAdminPage() {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const { user, account, permissions } = useInbox();
  // DICOM senders and the gatekeeper workflow are the account admins' (dicom/node/*, group/config/set).
  const isAdmin = user.admin === 1 || user.sysadmin === 1;
  const mayView = permissions.group_view === 1 || permissions.group_edit === 1;
  const mayEdit = permissions.group_edit === 1;
  const groups = useAccountGroups(account.uuid);
  const roles = useRoles(
    account.uuid,
    mayView && (permissions.role_view === 1 || permissions.role_edit === 1),
  );
  const remove = useDeleteGroup();
  const [dialog, setDialog] = useState<{ editing: AdminGroup | undefined } | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  const [tab, setTab] = useState<TabName>('members');

  if (!mayView) {
    return (
      <PagePanel title={t('Groups')}>
        <Alert severity="error">{t("You don't have enough permissions to manage groups")}</Alert>
      </PagePanel>
    );
  }
  const open = groups.data?.find((g) => g.uuid === openId);
  const runDelete = (g: AdminGroup) => {
    if (!window.confirm(t('Delete the group {{name}}?', { name: g.name }))) return;
    remove.mutate(g.uuid, {
      onSuccess: () => {
        enqueueSnackbar(t('Group deleted'), { variant: 'success' });
        if (openId === g.uuid) setOpenId(null);
      },
      onError: (error) => enqueueSnackbar(t(deleteRefusal(error)), { variant: 'error' }),
    });
  };

  return (
    <PagePanel title={t('Groups')}>
      {mayEdit && (
        <Stack direction="row" sx={{ mb: 2, justifyContent: 'flex-end' }}>
          <Button variant="contained" onClick={() => setDialog({ editing: undefined })}>
            {t('Add group')}
          </Button>
        </Stack>
      )}
      {groups.isPending && <Loading />}
      {groups.isError && <UnexpectedErrorAlert />}
      {groups.data && (
        <Table size="small" aria-label={t('Groups')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('Name')}</TableCell>
              <TableCell>{t('Type')}</TableCell>
              <TableCell align="right">{t('Members')}</TableCell>
              <TableCell align="right">{t('Exams')}</TableCell>
              <TableCell align="right">{t('Actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {groups.data.map((g) => (
              <TableRow key={g.uuid} hover selected={g.uuid === openId}>
                <TableCell>
                  <Button
                    size="small"
                    sx={{ textTransform: 'none', p: 0, minWidth: 0 }}
                    onClick={() => {
                      setOpenId(g.uuid === openId ? null : g.uuid);
                      setTab('members');
                    }}
                  >
                    {g.name}
                  </Button>
                </TableCell>
                <TableCell>{t(GROUP_TYPE_LABELS[g.type])}</TableCell>
                <TableCell align="right">{g.members}</TableCell>
                <TableCell align="right">{g.studies}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  {mayEdit && (
                    <>
                      <IconButton
                        aria-label={t('Rename {{name}}', { name: g.name })}
                        onClick={() => setDialog({ editing: g })}
                      >
                        <Edit fontSize="small" />
                      </IconButton>
                      <IconButton
                        aria-label={t('Delete {{name}}', { name: g.name })}
                        onClick={() => runDelete(g)}
                      >
                        <Delete fontSize="small" />
                      </IconButton>
                    </>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {open && (
        <Box component="section" aria-label={open.name} sx={{ mt: 3 }}>
          <Typography variant="h6" component="h2">
            {open.name}
          </Typography>
          <Tabs value={tab} onChange={(_e, v: TabName) => setTab(v)} sx={{ mb: 2 }}>
            <Tab label={t('Members')} value="members" />
            {isAdmin && open.type === 'CLOUD' && <Tab label={t('DICOM senders')} value="senders" />}
            {isAdmin && open.type === 'CLOUD' && <Tab label={t('Promote to PACS')} value="workflow" />}
            {isAdmin && open.type === 'GATEKEEPER' && <Tab label={t('Gatekeeper')} value="workflow" />}
          </Tabs>
          {tab === 'members' && <GroupMembers group={open} roles={roles.data ?? []} mayEdit={mayEdit} />}
          {tab === 'senders' && <GroupSenders group={open} mayEdit={isAdmin} />}
          {tab === 'workflow' && <GroupWorkflow key={open.uuid} group={open} />}
        </Box>
      )}
      <Box component="section" aria-label={t('Custom fields')} sx={{ mt: 4 }}>
        <Typography variant="h6" component="h2" gutterBottom>
          {t('Custom fields')}
        </Typography>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {t('Extra exam fields of the account, filled in the Exchange tab of every group.')}
        </Typography>
        <CustomFieldsPanel accountId={account.uuid} mayEdit={mayEdit} />
      </Box>
      {dialog && (
        <GroupDialog accountId={account.uuid} editing={dialog.editing} onClose={() => setDialog(null)} />
      )}
    </PagePanel>
  );
}
