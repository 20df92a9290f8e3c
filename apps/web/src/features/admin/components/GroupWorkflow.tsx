import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  FormControl,
  FormControlLabel,
  FormGroup,
  FormLabel,
  IconButton,
  MenuItem,
  Radio,
  RadioGroup,
  Stack,
  TextField,
  Typography,
} from '@mui/material';
import Delete from '@mui/icons-material/Delete';
import { useSnackbar } from 'notistack';
import type {
  AdminGroup,
  GatekeeperConfig,
  NominationFormField,
  PacsPromotePreference,
} from '@imaging-inbox/contract';
import { PACS_PROMOTE_PREFERENCES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import { useDestinations } from '../../destinations';
import { useAccountGroups } from '../api/groups';
import { useGroupWorkflow, useSetGroupConfig } from '../api/group-settings';

const PREFERENCE_LABELS: Record<PacsPromotePreference, string> = {
  MWL: 'Match orders from a worklist (MWL)',
  'C-Find': 'Match patients with C-FIND',
  NONE: 'No matching',
};

const EMPTY_GATEKEEPER: GatekeeperConfig = {
  customFields: [],
  pacsPromotePreference: 'NONE',
  destinations: [],
  queryDestination: null,
};

function savedText(error: unknown): string | null {
  const body = errorBody(error);
  if (!body) return null;
  return typeof body.error_data === 'string' ? body.error_data : 'The configuration was not saved';
}

/** A cloud group's promote-to-PACS list: the gatekeeper groups its members may nominate to. */
function PromoteList({ group, promoteTo }: { group: AdminGroup; promoteTo: string[] }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const groups = useAccountGroups(group.account_id);
  const save = useSetGroupConfig();
  const [chosen, setChosen] = useState(new Set(promoteTo));
  const gatekeepers = (groups.data ?? []).filter((g) => g.type === 'GATEKEEPER');
  return (
    <Stack spacing={2}>
      <FormControl component="fieldset">
        <FormLabel component="legend">{t('Gatekeeper groups this group may nominate exams to')}</FormLabel>
        {gatekeepers.length === 0 && (
          <Typography color="text.secondary">{t('No gatekeeper groups yet.')}</Typography>
        )}
        <FormGroup>
          {gatekeepers.map((g) => (
            <FormControlLabel
              key={g.uuid}
              label={g.name}
              control={
                <Checkbox
                  checked={chosen.has(g.uuid)}
                  onChange={() =>
                    setChosen((c) => {
                      const next = new Set(c);
                      if (next.has(g.uuid)) next.delete(g.uuid);
                      else next.add(g.uuid);
                      return next;
                    })
                  }
                />
              }
            />
          ))}
        </FormGroup>
      </FormControl>
      {save.isError && <Alert severity="error">{t(savedText(save.error) ?? '')}</Alert>}
      <Stack direction="row">
        <Button
          variant="contained"
          disabled={save.isPending}
          onClick={() =>
            save.mutate(
              { groupId: group.uuid, config: { promoteTo: [...chosen] } },
              { onSuccess: () => enqueueSnackbar(t('Configuration saved'), { variant: 'success' }) },
            )
          }
        >
          {t('Save')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** A gatekeeper group's configuration: nomination form, order matching, destinations. */
function GatekeeperForm({ group, initial }: { group: AdminGroup; initial: GatekeeperConfig }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const destinations = useDestinations(group.account_id);
  const save = useSetGroupConfig();
  const [config, setConfig] = useState<GatekeeperConfig>(initial);
  const setField = (i: number, change: Partial<NominationFormField>) =>
    setConfig((c) => ({
      ...c,
      customFields: c.customFields.map((f, j) => (j === i ? { ...f, ...change } : f)),
    }));
  const pushable = (destinations.data ?? []).filter((d) => d.can_push);
  const queryable = (destinations.data ?? []).filter((d) =>
    config.pacsPromotePreference === 'MWL' ? d.can_search_mwl : d.can_search,
  );

  return (
    <Stack spacing={3}>
      <FormControl component="fieldset">
        <FormLabel component="legend">{t('Nomination form')}</FormLabel>
        <Stack spacing={1} sx={{ mt: 1 }}>
          {config.customFields.map((f, i) => (
            <Stack
              key={i}
              direction={{ xs: 'column', md: 'row' }}
              spacing={1}
              sx={{ alignItems: { md: 'center' } }}
            >
              <TextField
                size="small"
                label={t('Field name')}
                value={f.name}
                onChange={(e) => setField(i, { name: e.target.value })}
              />
              <TextField
                size="small"
                label={t('Label')}
                value={f.label}
                onChange={(e) => setField(i, { label: e.target.value })}
              />
              <TextField
                size="small"
                label={t('Options (comma-separated)')}
                value={(f.options ?? []).join(', ')}
                onChange={(e) => {
                  const options = e.target.value
                    .split(',')
                    .map((o) => o.trim())
                    .filter(Boolean);
                  setField(i, options.length ? { options } : { options: undefined });
                }}
              />
              <FormControlLabel
                label={t('Required')}
                control={
                  <Checkbox
                    checked={f.required}
                    onChange={(e) => setField(i, { required: e.target.checked })}
                  />
                }
              />
              <IconButton
                aria-label={t('Remove the field {{name}}', { name: f.label || f.name })}
                onClick={() =>
                  setConfig((c) => ({ ...c, customFields: c.customFields.filter((_f, j) => j !== i) }))
                }
              >
                <Delete fontSize="small" />
              </IconButton>
            </Stack>
          ))}
          <Stack direction="row">
            <Button
              onClick={() =>
                setConfig((c) => ({
                  ...c,
                  customFields: [...c.customFields, { name: '', label: '', required: false }],
                }))
              }
            >
              {t('Add field')}
            </Button>
          </Stack>
        </Stack>
      </FormControl>
      <FormControl component="fieldset">
        <FormLabel component="legend">{t('Order matching')}</FormLabel>
        <RadioGroup
          value={config.pacsPromotePreference}
          onChange={(e) =>
            setConfig((c) => ({
              ...c,
              pacsPromotePreference: e.target.value as PacsPromotePreference,
              queryDestination: e.target.value === 'NONE' ? null : c.queryDestination,
            }))
          }
        >
          {PACS_PROMOTE_PREFERENCES.map((p) => (
            <FormControlLabel key={p} value={p} control={<Radio />} label={t(PREFERENCE_LABELS[p])} />
          ))}
        </RadioGroup>
        {config.pacsPromotePreference !== 'NONE' && (
          <TextField
            select
            size="small"
            label={t('Searched destination')}
            value={config.queryDestination ?? ''}
            onChange={(e) => setConfig((c) => ({ ...c, queryDestination: e.target.value || null }))}
            sx={{ maxWidth: 360, mt: 1 }}
          >
            {queryable.map((d) => (
              <MenuItem key={d.uuid} value={d.uuid}>
                {d.name}
              </MenuItem>
            ))}
          </TextField>
        )}
      </FormControl>
      <FormControl component="fieldset">
        <FormLabel component="legend">{t('Destinations processed exams may be sent to')}</FormLabel>
        {destinations.isPending && <Loading />}
        {pushable.length === 0 && !destinations.isPending && (
          <Typography color="text.secondary">{t('No destination takes pushes yet.')}</Typography>
        )}
        <FormGroup>
          {pushable.map((d) => (
            <FormControlLabel
              key={d.uuid}
              label={`${d.name} (${d.aetitle})`}
              control={
                <Checkbox
                  checked={config.destinations.includes(d.uuid)}
                  onChange={(e) =>
                    setConfig((c) => ({
                      ...c,
                      destinations: e.target.checked
                        ? [...c.destinations, d.uuid]
                        : c.destinations.filter((x) => x !== d.uuid),
                    }))
                  }
                />
              }
            />
          ))}
        </FormGroup>
      </FormControl>
      {save.isError && <Alert severity="error">{t(savedText(save.error) ?? '')}</Alert>}
      <Stack direction="row">
        <Button
          variant="contained"
          disabled={save.isPending}
          onClick={() =>
            save.mutate(
              { groupId: group.uuid, config },
              { onSuccess: () => enqueueSnackbar(t('Configuration saved'), { variant: 'success' }) },
            )
          }
        >
          {t('Save')}
        </Button>
      </Stack>
    </Stack>
  );
}

/** The gatekeeper workflow settings of a cloud group (promote list) or a gatekeeper group (its form). */
export function GroupWorkflow({ group }: { group: AdminGroup }) {
  const workflow = useGroupWorkflow(group.uuid);
  if (workflow.isPending) return <Loading />;
  if (workflow.isError) return <UnexpectedErrorAlert />;
  const w = workflow.data;
  if (w.type === 'CLOUD') return <PromoteList group={group} promoteTo={w.cloud_config.promoteTo} />;
  if (w.type === 'GATEKEEPER')
    return <GatekeeperForm group={group} initial={w.gatekeeper_config ?? EMPTY_GATEKEEPER} />;
  return null;
}
