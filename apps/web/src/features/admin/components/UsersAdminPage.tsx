import { useMemo, useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Chip,
  IconButton,
  InputAdornment,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableContainer,
  TableHead,
  TablePagination,
  TableRow,
  TableSortLabel,
  Tab,
  Tabs,
  TextField,
  Typography,
} from '@mui/material';
import Delete from '@mui/icons-material/Delete';
import Edit from '@mui/icons-material/Edit';
import Search from '@mui/icons-material/Search';
import { useSnackbar } from 'notistack';
import type { AccountUser, UserPageSize, UserSortField } from '@imaging-inbox/contract';
import {
  DEBOUNCE_MS,
  USER_ADMIN_MESSAGES,
  USER_PAGE_SIZES,
  userSelectionActions,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { useDateDisplay } from '../../../lib/date-preferences';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useAccountUsers, useDeleteAccountUser, useEnableUsers } from '../api/account-users';
import { useRoles } from '../api/roles';
import { roleLabel } from '../lib/user-role';
import { EditUserDialog } from './EditUserDialog';
import { InviteUserDialog } from './InviteUserDialog';
import { RolesPanel } from './RolesPanel';

const COLUMNS: { field: UserSortField; label: string }[] = [
  { field: 'name', label: 'Name' },
  { field: 'email', label: 'Email' },
  { field: 'last_login', label: 'Last login' },
  { field: 'role', label: 'Role' },
];

/**
 * Administration → Users (/organization/users.html): the account's users with name, e-mail, last
 * login and role; search, sort and page sizes 10/25/50/100; invite, edit, delete, enable and
 * disable with SPEC.md's selection rules.
 */
export function UsersAdminPage() {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  const { enqueueSnackbar } = useSnackbar();
  const { user: me, account, permissions } = useInbox();
  const isAdmin = me.admin === 1 || me.sysadmin === 1;
  const mayView = permissions.account_user_view === 1 || permissions.account_user_edit === 1;
  const mayEdit = permissions.account_user_edit === 1;
  const mayInvite = mayEdit || permissions.account_user_invite === 1;
  const [search, setSearch] = useState('');
  const filter = useDebouncedValue(search.trim(), DEBOUNCE_MS);
  const [sort, setSort] = useState<{ field: UserSortField; direction: 'asc' | 'desc' }>({
    field: 'name',
    direction: 'asc',
  });
  const [rows, setRows] = useState<UserPageSize>(USER_PAGE_SIZES[0]);
  const [page, setPage] = useState(1);
  const [selected, setSelected] = useState<Map<string, AccountUser>>(new Map());
  const [tab, setTab] = useState(0);
  const [dialog, setDialog] = useState<{ kind: 'invite' } | { kind: 'edit'; user: AccountUser } | null>(null);
  const users = useAccountUsers(account.uuid, { filter, sort, rows, page });
  const roles = useRoles(
    account.uuid,
    mayView && (permissions.role_view === 1 || permissions.role_edit === 1),
  );
  const remove = useDeleteAccountUser();
  const enable = useEnableUsers();
  const selection = useMemo(() => [...selected.values()], [selected]);
  const actions = userSelectionActions(selection);

  if (!mayView) {
    return (
      <PagePanel title={t('Users')}>
        <Alert severity="error">{t("You don't have enough permissions to manage users")}</Alert>
      </PagePanel>
    );
  }

  const list = users.data?.users ?? [];
  const toggle = (u: AccountUser) =>
    setSelected((current) => {
      const next = new Map(current);
      if (next.has(u.uuid)) next.delete(u.uuid);
      else next.set(u.uuid, u);
      return next;
    });
  const allOnPage = list.length > 0 && list.every((u) => selected.has(u.uuid));
  const toggleAll = () =>
    setSelected((current) => {
      const next = new Map(current);
      for (const u of list) {
        if (allOnPage) next.delete(u.uuid);
        else next.set(u.uuid, u);
      }
      return next;
    });
  const sortBy = (field: UserSortField) => {
    setSort((s) => ({ field, direction: s.field === field && s.direction === 'asc' ? 'desc' : 'asc' }));
    setPage(1);
  };
  const runEnable = (on: boolean) => {
    // Only the users whose state changes are sent.
    const targets = selection.filter((u) => u.enabled === (on ? 0 : 1)).map((u) => u.uuid);
    enable.mutate(
      { userIds: targets, enable: on },
      {
        onSuccess: () => {
          enqueueSnackbar(t(on ? USER_ADMIN_MESSAGES.enabled : USER_ADMIN_MESSAGES.disabled), {
            variant: 'success',
          });
          setSelected(new Map());
        },
        onError: () =>
          enqueueSnackbar(t(on ? USER_ADMIN_MESSAGES.enableFailed : USER_ADMIN_MESSAGES.disableFailed), {
            variant: 'error',
          }),
      },
    );
  };
  const runDelete = (u: AccountUser) => {
    if (!window.confirm(t('Remove {{name}} from the account?', { name: u.name }))) return;
    remove.mutate(
      { accountId: account.uuid, userId: u.uuid },
      {
        onSuccess: () => {
          enqueueSnackbar(t(USER_ADMIN_MESSAGES.deleted), { variant: 'success' });
          setSelected((current) => {
            const next = new Map(current);
            next.delete(u.uuid);
            return next;
          });
        },
        onError: () => enqueueSnackbar(t(USER_ADMIN_MESSAGES.deleteFailed), { variant: 'error' }),
      },
    );
  };

  const mayViewRoles = permissions.role_view === 1 || permissions.role_edit === 1;
  return (
    <PagePanel title={t('Users')}>
      {mayViewRoles && (
        <Tabs value={tab} onChange={(_e, v: number) => setTab(v)} sx={{ mb: 2 }}>
          <Tab label={t('Users')} />
          <Tab label={t('Roles')} />
        </Tabs>
      )}
      {tab === 1 ? (
        <RolesPanel accountId={account.uuid} mayEdit={permissions.role_edit === 1} />
      ) : (
        <>
          <Stack
            direction={{ xs: 'column', sm: 'row' }}
            spacing={1}
            sx={{ mb: 2, alignItems: { sm: 'center' } }}
          >
            <TextField
              size="small"
              placeholder={t('Search by name or email')}
              value={search}
              onChange={(e) => {
                setSearch(e.target.value);
                setPage(1);
              }}
              slotProps={{
                input: {
                  startAdornment: (
                    <InputAdornment position="start">
                      <Search fontSize="small" />
                    </InputAdornment>
                  ),
                },
                htmlInput: { 'aria-label': t('Search users') },
              }}
              sx={{ minWidth: 260 }}
            />
            <Box sx={{ flexGrow: 1 }} />
            {mayEdit && (
              <>
                <Button
                  variant="outlined"
                  disabled={!actions.enable || enable.isPending}
                  onClick={() => runEnable(true)}
                >
                  {t('Enable')}
                </Button>
                <Button
                  variant="outlined"
                  disabled={!actions.disable || enable.isPending}
                  onClick={() => runEnable(false)}
                >
                  {t('Disable')}
                </Button>
              </>
            )}
            {mayInvite && (
              <Button variant="contained" onClick={() => setDialog({ kind: 'invite' })}>
                {t('Invite user')}
              </Button>
            )}
          </Stack>
          {users.isPending && <Loading />}
          {users.isError && <UnexpectedErrorAlert />}
          {users.data && (
            <>
              <TableContainer>
                <Table size="small" aria-label={t('Users')}>
                  <TableHead>
                    <TableRow>
                      {mayEdit && (
                        <TableCell padding="checkbox">
                          <Checkbox
                            checked={allOnPage}
                            indeterminate={!allOnPage && list.some((u) => selected.has(u.uuid))}
                            onChange={toggleAll}
                            slotProps={{ input: { 'aria-label': t('Select all users on this page') } }}
                          />
                        </TableCell>
                      )}
                      {COLUMNS.map((c) => (
                        <TableCell
                          key={c.field}
                          sortDirection={sort.field === c.field ? sort.direction : false}
                        >
                          <TableSortLabel
                            active={sort.field === c.field}
                            direction={sort.field === c.field ? sort.direction : 'asc'}
                            onClick={() => sortBy(c.field)}
                          >
                            {t(c.label)}
                          </TableSortLabel>
                        </TableCell>
                      ))}
                      {mayEdit && <TableCell align="right">{t('Actions')}</TableCell>}
                    </TableRow>
                  </TableHead>
                  <TableBody>
                    {list.map((u) => (
                      <TableRow key={u.uuid} hover selected={selected.has(u.uuid)}>
                        {mayEdit && (
                          <TableCell padding="checkbox">
                            <Checkbox
                              checked={selected.has(u.uuid)}
                              onChange={() => toggle(u)}
                              slotProps={{ input: { 'aria-label': t('Select {{name}}', { name: u.name }) } }}
                            />
                          </TableCell>
                        )}
                        <TableCell>
                          {u.name}
                          {u.invited === 1 && (
                            <Chip size="small" label={t('Invited')} sx={{ ml: 1 }} variant="outlined" />
                          )}
                          {u.suspended === 1 ? (
                            <Chip size="small" label={t('Suspended')} sx={{ ml: 1 }} variant="outlined" />
                          ) : (
                            u.enabled === 0 && (
                              <Chip size="small" label={t('Disabled')} sx={{ ml: 1 }} variant="outlined" />
                            )
                          )}
                        </TableCell>
                        <TableCell sx={{ wordBreak: 'break-all' }}>{u.email}</TableCell>
                        <TableCell>
                          {u.last_login === null
                            ? t('Never')
                            : dates.timestamp(new Date(u.last_login).toISOString())}
                        </TableCell>
                        <TableCell>{t(roleLabel(u))}</TableCell>
                        {mayEdit && (
                          <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                            <IconButton
                              aria-label={t('Edit {{name}}', { name: u.name })}
                              onClick={() => setDialog({ kind: 'edit', user: u })}
                            >
                              <Edit fontSize="small" />
                            </IconButton>
                            <IconButton
                              aria-label={t('Delete {{name}}', { name: u.name })}
                              onClick={() => runDelete(u)}
                            >
                              <Delete fontSize="small" />
                            </IconButton>
                          </TableCell>
                        )}
                      </TableRow>
                    ))}
                  </TableBody>
                </Table>
              </TableContainer>
              {list.length === 0 && (
                <Typography color="text.secondary" sx={{ p: 2 }}>
                  {t('No users found')}
                </Typography>
              )}
              <TablePagination
                component="div"
                count={users.data.page.total}
                page={page - 1}
                onPageChange={(_e, p) => setPage(p + 1)}
                rowsPerPage={rows}
                rowsPerPageOptions={[...USER_PAGE_SIZES]}
                onRowsPerPageChange={(e) => {
                  setRows(Number(e.target.value) as UserPageSize);
                  setPage(1);
                }}
                labelRowsPerPage={t('Rows per page')}
              />
            </>
          )}
        </>
      )}
      {dialog?.kind === 'invite' && (
        <InviteUserDialog
          accountId={account.uuid}
          roles={roles.data ?? []}
          allowAdmin={isAdmin}
          onClose={() => setDialog(null)}
        />
      )}
      {dialog?.kind === 'edit' && (
        <EditUserDialog
          accountId={account.uuid}
          user={dialog.user}
          roles={roles.data ?? []}
          allowAdmin={isAdmin}
          onClose={() => setDialog(null)}
        />
      )}
    </PagePanel>
  );
}
