import { useState } from 'react';
import {
  Alert,
  Box,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  IconButton,
  MenuItem,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import Delete from '@mui/icons-material/Delete';
import {
  ROUTE_ACTION_TYPES,
  ROUTE_CONDITION_FIELDS,
  ROUTE_EVENTS,
  ROUTE_OPERATORS,
  routeRegexProblem,
} from '@imaging-inbox/contract';
import type { RouteAction, RouteCondition, RouteEvent, RoutingRule } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useAddRoute, useSetRoute } from '../api/routing';
import { ProfileSelect } from '../../privacy';
import {
  ACTION_LABELS,
  EVENT_LABELS,
  FIELD_LABELS,
  OPERATOR_LABELS,
  actionOf,
  actionTarget,
} from '../lib/rule-text';

export interface Choice {
  uuid: string;
  name: string;
}

interface Props {
  accountId: string;
  editing: RoutingRule | undefined;
  groups: Choice[];
  senders: Choice[];
  destinations: Choice[];
  webhooks: Choice[];
  connections: Choice[];
  onClose: () => void;
}

interface ActionRow {
  type: RouteAction['type'];
  target: string;
  /** A share to a group: the de-identification profile it applies ('' : none; decision 0071). */
  profile?: string;
}

/** Add or edit one routing rule: target, triggers, conditions (all/any) and actions. */
export function RuleDialog({
  accountId,
  editing,
  groups,
  senders,
  destinations,
  webhooks,
  connections,
  onClose,
}: Props) {
  const { t } = useTranslation();
  const [name, setName] = useState(editing?.name ?? '');
  const [forType, setForType] = useState<'' | 'group' | 'sender'>(editing?.for?.type ?? '');
  const [forId, setForId] = useState(editing?.for?.id ?? '');
  const [when, setWhen] = useState<RouteEvent[]>(editing?.when ?? ['upload', 'harvest']);
  const [match, setMatch] = useState<'all' | 'any'>(editing?.match ?? 'all');
  const [conditions, setConditions] = useState<RouteCondition[]>(editing?.conditions ?? []);
  const [actions, setActions] = useState<ActionRow[]>(
    editing?.actions.map((a) => ({
      type: a.type,
      target: actionTarget(a),
      profile: a.type === 'share_group' ? (a.anonymization_id ?? '') : '',
    })) ?? [{ type: 'share_group', target: '' }],
  );
  const [disabled, setDisabled] = useState(editing?.disabled === 1);
  const [touched, setTouched] = useState(false);
  const add = useAddRoute();
  const set = useSetRoute();
  const mutation = editing ? set : add;
  const refused = errorBody(mutation.error);

  const choicesFor = (type: RouteAction['type']): Choice[] | undefined =>
    ({
      share_group: groups,
      push: destinations,
      webhook: webhooks,
      connection: connections,
      share_code: undefined,
    })[type];
  const problems: string[] = [];
  if (!name.trim()) problems.push(t('The rule needs a name.'));
  if (!when.length) problems.push(t('Choose when the rule runs.'));
  if (forType && !forId) problems.push(t('Choose the group or sender the rule is for.'));
  conditions.forEach((c, i) => {
    const why = c.op === 'regex' ? routeRegexProblem(c.value) : null;
    if (why) problems.push(t('Condition {{n}}: the regex {{why}}.', { n: i + 1, why }));
    if (c.field.startsWith('custom:') && c.field.length === 'custom:'.length)
      problems.push(t('Condition {{n}}: name the custom field.', { n: i + 1 }));
  });
  if (!actions.length) problems.push(t('Add at least one action.'));
  actions.forEach((a, i) => {
    if (!a.target.trim()) problems.push(t('Action {{n}}: choose its target.', { n: i + 1 }));
  });

  const submit = () => {
    setTouched(true);
    if (problems.length) return;
    const params = {
      name: name.trim(),
      for_type: forType,
      for_id: forType ? forId : '',
      when: when.join(','),
      match,
      conditions: JSON.stringify(conditions),
      actions: JSON.stringify(actions.map((a) => actionOf(a.type, a.target.trim(), a.profile))),
      disabled: disabled ? 1 : 0,
    };
    mutation.mutate(editing ? { uuid: editing.uuid, ...params } : { account_id: accountId, ...params }, {
      onSuccess: onClose,
    });
  };

  const updateCondition = (i: number, change: Partial<RouteCondition>) =>
    setConditions(conditions.map((c, j) => (j === i ? { ...c, ...change } : c)));
  const updateAction = (i: number, change: Partial<ActionRow>) =>
    setActions(actions.map((a, j) => (j === i ? { ...a, ...change } : a)));

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="md">
      <DialogTitle>{editing ? t('Edit routing rule') : t('Add routing rule')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField label={t('Name')} value={name} onChange={(e) => setName(e.target.value)} required />
          <Stack direction="row" spacing={2}>
            <TextField
              select
              label={t('For')}
              value={forType}
              onChange={(e) => {
                setForType(e.target.value as '' | 'group' | 'sender');
                setForId('');
              }}
              sx={{ minWidth: 200 }}
            >
              <MenuItem value="">{t('Every exam of the account')}</MenuItem>
              <MenuItem value="group">{t('A group')}</MenuItem>
              <MenuItem value="sender">{t('A DICOM sender')}</MenuItem>
            </TextField>
            {forType && (
              <TextField
                select
                label={forType === 'group' ? t('Group') : t('Sender')}
                value={forId}
                onChange={(e) => setForId(e.target.value)}
                sx={{ minWidth: 260 }}
              >
                {(forType === 'group' ? groups : senders).map((c) => (
                  <MenuItem key={c.uuid} value={c.uuid}>
                    {c.name}
                  </MenuItem>
                ))}
              </TextField>
            )}
          </Stack>
          <div>
            <Typography variant="subtitle2">{t('When')}</Typography>
            <FormGroup row>
              {ROUTE_EVENTS.map((event) => (
                <FormControlLabel
                  key={event}
                  label={t(EVENT_LABELS[event])}
                  control={
                    <Checkbox
                      checked={when.includes(event)}
                      onChange={(e) =>
                        setWhen(e.target.checked ? [...when, event] : when.filter((w) => w !== event))
                      }
                    />
                  }
                />
              ))}
            </FormGroup>
          </div>
          <div>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Typography variant="subtitle2">{t('Conditions')}</Typography>
              <TextField
                select
                size="small"
                label={t('Match')}
                value={match}
                onChange={(e) => setMatch(e.target.value as 'all' | 'any')}
              >
                <MenuItem value="all">{t('All conditions')}</MenuItem>
                <MenuItem value="any">{t('Any condition')}</MenuItem>
              </TextField>
              <Button
                size="small"
                onClick={() => setConditions([...conditions, { field: 'modality', op: 'equals', value: '' }])}
              >
                {t('Add condition')}
              </Button>
            </Stack>
            {conditions.length === 0 && (
              <Typography color="text.secondary" variant="body2">
                {t('No conditions: the rule applies to every exam it is for.')}
              </Typography>
            )}
            {conditions.map((c, i) => (
              <Stack key={i} direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
                <TextField
                  select
                  size="small"
                  label={t('Field')}
                  value={c.field.startsWith('custom:') ? 'custom' : c.field}
                  onChange={(e) =>
                    updateCondition(i, {
                      field:
                        e.target.value === 'custom' ? 'custom:' : (e.target.value as RouteCondition['field']),
                    })
                  }
                  sx={{ minWidth: 190 }}
                >
                  {ROUTE_CONDITION_FIELDS.map((f) => (
                    <MenuItem key={f} value={f}>
                      {t(FIELD_LABELS[f]!)}
                    </MenuItem>
                  ))}
                  <MenuItem value="custom">{t('Custom field')}</MenuItem>
                </TextField>
                {c.field.startsWith('custom:') && (
                  <TextField
                    size="small"
                    label={t('Custom field name')}
                    value={c.field.slice('custom:'.length)}
                    onChange={(e) => updateCondition(i, { field: `custom:${e.target.value}` })}
                  />
                )}
                <TextField
                  select
                  size="small"
                  label={t('Operator')}
                  value={c.op}
                  onChange={(e) => updateCondition(i, { op: e.target.value as RouteCondition['op'] })}
                  sx={{ minWidth: 150 }}
                >
                  {ROUTE_OPERATORS.map((op) => (
                    <MenuItem key={op} value={op}>
                      {t(OPERATOR_LABELS[op])}
                    </MenuItem>
                  ))}
                </TextField>
                <TextField
                  size="small"
                  label={t('Value')}
                  value={c.value}
                  onChange={(e) => updateCondition(i, { value: e.target.value })}
                  sx={{ flex: 1 }}
                />
                <IconButton
                  aria-label={t('Remove condition {{n}}', { n: i + 1 })}
                  onClick={() => setConditions(conditions.filter((_, j) => j !== i))}
                >
                  <Delete fontSize="small" />
                </IconButton>
              </Stack>
            ))}
          </div>
          <div>
            <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
              <Typography variant="subtitle2">{t('Actions')}</Typography>
              <Button
                size="small"
                onClick={() => setActions([...actions, { type: 'share_group', target: '' }])}
              >
                {t('Add action')}
              </Button>
            </Stack>
            {actions.map((a, i) => {
              const choices = choicesFor(a.type);
              return (
                <Box key={i}>
                  <Stack direction="row" spacing={1} sx={{ mt: 1, alignItems: 'center' }}>
                    <TextField
                      select
                      size="small"
                      label={t('Action')}
                      value={a.type}
                      onChange={(e) =>
                        updateAction(i, { type: e.target.value as RouteAction['type'], target: '' })
                      }
                      sx={{ minWidth: 210 }}
                    >
                      {ROUTE_ACTION_TYPES.map((type) => (
                        <MenuItem key={type} value={type}>
                          {t(ACTION_LABELS[type])}
                        </MenuItem>
                      ))}
                    </TextField>
                    {choices ? (
                      <TextField
                        select
                        size="small"
                        label={t('Target')}
                        value={a.target}
                        onChange={(e) => updateAction(i, { target: e.target.value })}
                        sx={{ flex: 1 }}
                      >
                        {choices.map((c) => (
                          <MenuItem key={c.uuid} value={c.uuid}>
                            {c.name}
                          </MenuItem>
                        ))}
                      </TextField>
                    ) : (
                      <TextField
                        size="small"
                        label={t('Share code')}
                        value={a.target}
                        onChange={(e) => updateAction(i, { target: e.target.value })}
                        sx={{ flex: 1 }}
                      />
                    )}
                    <IconButton
                      aria-label={t('Remove action {{n}}', { n: i + 1 })}
                      onClick={() => setActions(actions.filter((_, j) => j !== i))}
                    >
                      <Delete fontSize="small" />
                    </IconButton>
                  </Stack>
                  {a.type === 'share_group' && (
                    <Box sx={{ mt: 1, ml: 2, mr: 6 }}>
                      <ProfileSelect
                        accountId={accountId}
                        value={a.profile ?? ''}
                        onChange={(uuid) => updateAction(i, { profile: uuid })}
                        label={t('Share de-identified with')}
                      />
                    </Box>
                  )}
                </Box>
              );
            })}
          </div>
          <FormControlLabel
            label={t('Disabled')}
            control={<Checkbox checked={disabled} onChange={(e) => setDisabled(e.target.checked)} />}
          />
          {touched && problems.length > 0 && (
            <Alert severity="warning">
              {problems.map((p) => (
                <div key={p}>{p}</div>
              ))}
            </Alert>
          )}
          {refused && (
            <Alert severity="error">
              {t('The rule was not saved: {{why}}', {
                why: `${String(refused.error_subtype ?? refused.error_type)} ${typeof refused.error_data === 'string' ? refused.error_data : ''}`.trim(),
              })}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('Cancel')}</Button>
        <Button variant="contained" onClick={submit} disabled={mutation.isPending}>
          {t('Save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
