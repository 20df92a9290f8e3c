import { useState } from 'react';
import { Alert, Button, MenuItem, Stack, TextField } from '@mui/material';
import type { AdminGroup, GroupMember, Role } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { AdminTable } from '../../../components/AdminTable';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useAccountUsers } from '../api/account-users';
import { useDeleteGroupMember, useGroupMembers, useSetGroupMember } from '../api/groups';

interface Props {
  group: AdminGroup;
  roles: readonly Role[];
  mayEdit: boolean;
}

const ALL_USERS = { filter: '', sort: { field: 'name', direction: 'asc' }, rows: 100, page: 1 } as const;

function refusalText(error: unknown): string {
  const body = errorBody(error);
  if (body?.error_subtype === 'own_role') return 'You cannot change your own membership.';
  return 'The member was not saved';
}

/** The members of a group with the role each holds there: add, change a role, remove. */
export function GroupMembers({ group, roles, mayEdit }: Props) {
  const { t } = useTranslation();
  const members = useGroupMembers(group.uuid);
  const users = useAccountUsers(group.account_id, ALL_USERS);
  const setMember = useSetGroupMember();
  const removeMember = useDeleteGroupMember();
  const [newUser, setNewUser] = useState('');
  const [newRole, setNewRole] = useState('');
  const inGroup = new Set(members.data?.map((m) => m.uuid));
  const candidates = (users.data?.users ?? []).filter((u) => !inGroup.has(u.uuid));
  const failed = setMember.error ?? removeMember.error;

  const ownPermissions = (m: GroupMember) =>
    t('Own permissions ({{count}})', { count: m.permissions.length });
  const roleCell = (m: GroupMember) =>
    mayEdit ? (
      <TextField
        select
        size="small"
        value={m.role?.uuid ?? ''}
        onChange={(e) => setMember.mutate({ groupId: group.uuid, userId: m.uuid, roleId: e.target.value })}
        slotProps={{ htmlInput: { 'aria-label': t('Role of {{name}}', { name: m.name }) } }}
        fullWidth
      >
        {m.role === null && (
          <MenuItem value="" disabled>
            {ownPermissions(m)}
          </MenuItem>
        )}
        {roles.map((r) => (
          <MenuItem key={r.uuid} value={r.uuid}>
            {r.name}
          </MenuItem>
        ))}
      </TextField>
    ) : (
      (m.role?.name ?? ownPermissions(m))
    );

  if (members.isPending) return <Loading />;
  if (members.isError) return <UnexpectedErrorAlert />;
  return (
    <Stack spacing={2}>
      <AdminTable
        label={t('Members of {{name}}', { name: group.name })}
        rows={members.data}
        rowKey={(m) => m.uuid}
        emptyText={t('No members yet.')}
        columns={[
          { label: t('Name'), cell: (m) => m.name },
          { label: t('Email'), cell: (m) => m.email, sx: { wordBreak: 'break-all' } },
          { label: t('Role'), cell: roleCell, sx: { minWidth: 180 } },
        ]}
        remove={
          mayEdit
            ? {
                label: (m) => t('Remove {{name}} from the group', { name: m.name }),
                onDelete: (m) => removeMember.mutate({ groupId: group.uuid, userId: m.uuid }),
              }
            : undefined
        }
      />
      {mayEdit && (
        <Stack direction={{ xs: 'column', sm: 'row' }} spacing={1} sx={{ alignItems: { sm: 'center' } }}>
          <TextField
            select
            size="small"
            label={t('User')}
            value={newUser}
            onChange={(e) => setNewUser(e.target.value)}
            sx={{ minWidth: 220 }}
          >
            {candidates.map((u) => (
              <MenuItem key={u.uuid} value={u.uuid}>
                {u.name} ({u.email})
              </MenuItem>
            ))}
          </TextField>
          <TextField
            select
            size="small"
            label={t('Role')}
            value={newRole}
            onChange={(e) => setNewRole(e.target.value)}
            sx={{ minWidth: 180 }}
          >
            {roles.map((r) => (
              <MenuItem key={r.uuid} value={r.uuid}>
                {r.name}
              </MenuItem>
            ))}
          </TextField>
          <Button
            variant="outlined"
            disabled={!newUser || !newRole || setMember.isPending}
            onClick={() =>
              setMember.mutate(
                { groupId: group.uuid, userId: newUser, roleId: newRole },
                { onSuccess: () => setNewUser('') },
              )
            }
          >
            {t('Add member')}
          </Button>
        </Stack>
      )}
      {mayEdit && roles.length === 0 && (
        <Alert severity="info">{t('Members hold one of the account roles: add a role first.')}</Alert>
      )}
      {failed && <Alert severity="error">{t(refusalText(failed))}</Alert>}
    </Stack>
  );
}
