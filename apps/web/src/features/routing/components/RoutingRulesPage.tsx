import { useState } from 'react';
import { Alert, Button, Chip, IconButton } from '@mui/material';
import ArrowDownward from '@mui/icons-material/ArrowDownward';
import ArrowUpward from '@mui/icons-material/ArrowUpward';
import Edit from '@mui/icons-material/Edit';
import type { RoutingRule } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { AdminTable } from '../../../components/AdminTable';
import { Loading } from '../../../components/Loading';
import { PagePanel } from '../../../components/PagePanel';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useInbox } from '../../../session/inbox-context';
import { useDeleteRoute, useRoutes, useRouteTargets, useSetRoute, useWebhooks } from '../api/routing';
import { ACTION_LABELS, EVENT_LABELS, OPERATOR_LABELS, actionTarget, fieldLabel } from '../lib/rule-text';
import { RuleDialog } from './RuleDialog';
import { WebhooksPanel } from './WebhooksPanel';

/**
 * Administration → Routing Rules (/organization/routing-rules.html): the account's rules in the
 * order they are read, to add, edit, reorder and delete (route_edit; route_view reads them), and,
 * for account admins, the webhooks their actions may call with each one's deliveries.
 */
export function RoutingRulesPage() {
  const { t } = useTranslation();
  const { user, account, permissions, groups } = useInbox();
  const isAdmin = user.admin === 1 || user.sysadmin === 1;
  const canView = isAdmin || permissions.route_view === 1 || permissions.route_edit === 1;
  const canEdit = isAdmin || permissions.route_edit === 1;
  const routes = useRoutes(account.uuid);
  const webhooks = useWebhooks(account.uuid, isAdmin);
  const targets = useRouteTargets(account.uuid, isAdmin);
  const setRoute = useSetRoute();
  const remove = useDeleteRoute();
  const [dialog, setDialog] = useState<{ editing: RoutingRule | undefined } | null>(null);

  if (!canView) {
    return (
      <PagePanel title={t('Routing Rules')}>
        <Alert severity="error">{t("You don't have enough permissions to see routing rules")}</Alert>
      </PagePanel>
    );
  }
  const groupChoices = groups
    .filter((g) => g.namespaceIds.length === 1)
    .map((g) => ({ uuid: g.uuid, name: g.name }));
  const names = new Map<string, string>([
    ...groupChoices.map((g): [string, string] => [g.uuid, g.name]),
    ...targets.senders.map((s): [string, string] => [s.uuid, `${s.name} (${s.ae_title})`]),
    ...targets.destinations.map((d): [string, string] => [d.uuid, d.name]),
    ...targets.connections.map((c): [string, string] => [c.uuid, c.name]),
    ...(webhooks.data ?? []).map((w): [string, string] => [w.uuid, w.name]),
  ]);
  const nameOf = (id: string) => names.get(id) ?? id;

  /** Swaps a rule's place with its neighbour's: the two sequence numbers are exchanged. */
  const move = (list: RoutingRule[], index: number, by: -1 | 1) => {
    const a = list[index]!;
    const b = list[index + by]!;
    const [seqA, seqB] = a.sequence === b.sequence ? [b.sequence + by, a.sequence] : [b.sequence, a.sequence];
    setRoute.mutate({ uuid: a.uuid, sequence: Math.max(0, seqA) });
    setRoute.mutate({ uuid: b.uuid, sequence: Math.max(0, seqB) });
  };

  return (
    <PagePanel
      title={t('Routing Rules')}
      actions={
        canEdit && (
          <Button variant="contained" onClick={() => setDialog({ editing: undefined })}>
            {t('Add routing rule')}
          </Button>
        )
      }
    >
      {routes.isPending && <Loading />}
      {routes.isError && <UnexpectedErrorAlert />}
      {routes.data && (
        <AdminTable
          label={t('Routing Rules')}
          rows={routes.data}
          rowKey={(r) => r.uuid}
          emptyText={t('No routing rules yet.')}
          rowSx={(r) => (r.disabled ? { opacity: 0.6 } : undefined)}
          // The rule's own Actions column says what it does; its buttons need no header.
          actionsLabel=""
          columns={[
            { label: t('Order'), cell: (r) => routes.data.indexOf(r) + 1 },
            {
              label: t('Name'),
              cell: (r) => (
                <>
                  {r.name} {r.disabled === 1 && <Chip size="small" label={t('Disabled')} />}
                </>
              ),
            },
            { label: t('For'), cell: (r) => (r.for ? nameOf(r.for.id) : t('Every exam')) },
            { label: t('When'), cell: (r) => r.when.map((w) => t(EVENT_LABELS[w])).join(', ') },
            {
              label: t('Conditions'),
              cell: (r) =>
                r.conditions.length === 0
                  ? t('Always')
                  : r.conditions
                      .map((c) => `${t(fieldLabel(c.field))} ${t(OPERATOR_LABELS[c.op])} "${c.value}"`)
                      .join(r.match === 'all' ? ` ${t('and')} ` : ` ${t('or')} `),
            },
            {
              label: t('Actions'),
              cell: (r) =>
                r.actions.map((a) => `${t(ACTION_LABELS[a.type])}: ${nameOf(actionTarget(a))}`).join('; '),
            },
          ]}
          actions={
            canEdit
              ? (r) => {
                  const list = routes.data;
                  const i = list.indexOf(r);
                  return (
                    <>
                      <IconButton
                        aria-label={t('Move {{name}} up', { name: r.name })}
                        disabled={i === 0 || setRoute.isPending}
                        onClick={() => move(list, i, -1)}
                      >
                        <ArrowUpward fontSize="small" />
                      </IconButton>
                      <IconButton
                        aria-label={t('Move {{name}} down', { name: r.name })}
                        disabled={i === list.length - 1 || setRoute.isPending}
                        onClick={() => move(list, i, 1)}
                      >
                        <ArrowDownward fontSize="small" />
                      </IconButton>
                      <IconButton
                        aria-label={t('Edit {{name}}', { name: r.name })}
                        onClick={() => setDialog({ editing: r })}
                      >
                        <Edit fontSize="small" />
                      </IconButton>
                    </>
                  );
                }
              : undefined
          }
          remove={
            canEdit
              ? {
                  label: (r) => t('Delete {{name}}', { name: r.name }),
                  confirm: (r) => t('Delete the routing rule {{name}}?', { name: r.name }),
                  onDelete: (r) => remove.mutate(r.uuid),
                }
              : undefined
          }
        />
      )}
      {isAdmin && <WebhooksPanel accountId={account.uuid} webhooks={webhooks} />}
      {dialog && (
        <RuleDialog
          accountId={account.uuid}
          editing={dialog.editing}
          groups={groupChoices}
          senders={targets.senders.map((s) => ({ uuid: s.uuid, name: `${s.name} (${s.ae_title})` }))}
          destinations={targets.destinations}
          webhooks={webhooks.data ?? []}
          connections={targets.connections}
          onClose={() => setDialog(null)}
        />
      )}
    </PagePanel>
  );
}
