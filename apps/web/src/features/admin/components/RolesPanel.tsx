import { useState } from 'react';
import {
  Button,
  IconButton,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TableRow,
  Typography,
} from '@mui/material';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import { useSnackbar } from 'notistack';
import type { Role } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useDeleteRole, useRoles } from '../api/roles';
import { permissionLabel } from '../lib/permission-label';
import { RoleDialog } from './RoleDialog';

/** The account's roles: what each grants and how many memberships hold it; add, edit, delete. */
export function RolesPanel({ accountId, mayEdit }: { accountId: string; mayEdit: boolean }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const roles = useRoles(accountId);
  const remove = useDeleteRole();
  const [dialog, setDialog] = useState<{ editing: Role | undefined } | null>(null);

  const runDelete = (r: Role) => {
    if (!window.confirm(t('Delete the role {{name}}?', { name: r.name }))) return;
    remove.mutate(r.uuid, {
      onSuccess: () => enqueueSnackbar(t('Role deleted'), { variant: 'success' }),
      onError: (error) =>
        enqueueSnackbar(
          t(
            errorBody(error)?.error_type === 'IN_USE'
              ? 'Users or group members hold this role: give them another one first.'
              : 'Failed to delete the role',
          ),
          { variant: 'error' },
        ),
    });
  };

  if (roles.isPending) return <Loading />;
  if (roles.isError) return <UnexpectedErrorAlert />;
  return (
    <>
      {mayEdit && (
        <Stack direction="row" sx={{ mb: 2, justifyContent: 'flex-end' }}>
          <Button variant="contained" onClick={() => setDialog({ editing: undefined })}>
            {t('Add role')}
          </Button>
        </Stack>
      )}
      {roles.data.length === 0 ? (
        <Typography color="text.secondary">{t('No roles yet.')}</Typography>
      ) : (
        <Table size="small" aria-label={t('Roles')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('Name')}</TableCell>
              <TableCell>{t('Permissions')}</TableCell>
              <TableCell align="right">{t('Held by')}</TableCell>
              {mayEdit && <TableCell align="right">{t('Actions')}</TableCell>}
            </TableRow>
          </TableHead>
          <TableBody>
            {roles.data.map((r) => (
              <TableRow key={r.uuid}>
                <TableCell sx={{ whiteSpace: 'nowrap' }}>{r.name}</TableCell>
                <TableCell>
                  {r.permissions.length
                    ? r.permissions.map((p) => t(permissionLabel(p))).join(', ')
                    : t('Nothing')}
                </TableCell>
                <TableCell align="right">{r.holders}</TableCell>
                {mayEdit && (
                  <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                    <IconButton
                      aria-label={t('Edit {{name}}', { name: r.name })}
                      onClick={() => setDialog({ editing: r })}
                    >
                      <Edit fontSize="small" />
                    </IconButton>
                    <IconButton
                      aria-label={t('Delete {{name}}', { name: r.name })}
                      onClick={() => runDelete(r)}
                    >
                      <Delete fontSize="small" />
                    </IconButton>
                  </TableCell>
                )}
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {dialog && (
        <RoleDialog accountId={accountId} editing={dialog.editing} onClose={() => setDialog(null)} />
      )}
    </>
  );
}
