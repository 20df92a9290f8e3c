import { useState } from 'react';
import { Alert, Button, Checkbox, FormControlLabel, MenuItem, Stack, TextField } from '@mui/material';
import type { CustomField, CustomFieldType } from '@imaging-inbox/contract';
import { CUSTOM_FIELD_TYPES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { AdminTable } from '../../../components/AdminTable';
import { Loading } from '../../../components/Loading';
import { UnexpectedErrorAlert } from '../../../components/UnexpectedErrorAlert';
import {
  useAddCustomField,
  useCustomFields,
  useDeleteCustomField,
  useSetCustomField,
} from '../api/custom-fields';

const TYPE_LABELS: Record<CustomFieldType, string> = {
  radio: 'Radio buttons',
  select: 'Drop-down list',
  text: 'Text',
  memo: 'Memo (several lines)',
};
const hasChoices = (type: CustomFieldType) => type === 'radio' || type === 'select';

function refusalText(error: unknown): string {
  const body = errorBody(error);
  if (body?.error_subtype === 'name') return 'Another custom field of the account has this name.';
  if (body?.error_subtype === 'options' && typeof body.error_data === 'string') return body.error_data;
  return 'The custom field was not saved';
}

/**
 * The account's custom exam fields (name, type, required, choices), filled in the Exchange tab of
 * every group: add, mark required or not, delete.
 */
export function CustomFieldsPanel({ accountId, mayEdit }: { accountId: string; mayEdit: boolean }) {
  const { t } = useTranslation();
  const fields = useCustomFields(accountId);
  const add = useAddCustomField();
  const set = useSetCustomField();
  const remove = useDeleteCustomField();
  const [name, setName] = useState('');
  const [type, setType] = useState<CustomFieldType>('text');
  const [required, setRequired] = useState(false);
  const [choices, setChoices] = useState('');
  const failed = add.error ?? set.error ?? remove.error;

  if (fields.isPending) return <Loading />;
  if (fields.isError) return <UnexpectedErrorAlert />;
  const describe = (f: CustomField) =>
    f.options.length ? f.options.map((o) => o.field_label).join(', ') : '—';
  return (
    <Stack spacing={2}>
      <AdminTable
        label={t('Custom fields')}
        rows={fields.data}
        rowKey={(f) => f.uuid}
        emptyText={t('No custom fields yet.')}
        columns={[
          { label: t('Name'), cell: (f) => f.name },
          { label: t('Type'), cell: (f) => t(TYPE_LABELS[f.type]) },
          {
            label: t('Required'),
            cell: (f) => (
              <Checkbox
                size="small"
                checked={f.required === 1}
                disabled={!mayEdit || set.isPending}
                onChange={(e) => set.mutate({ uuid: f.uuid, required: e.target.checked ? 1 : 0 })}
                slotProps={{ input: { 'aria-label': t('{{name}} is required', { name: f.name }) } }}
              />
            ),
          },
          { label: t('Choices'), cell: describe },
        ]}
        remove={
          mayEdit
            ? {
                label: (f) => t('Delete {{name}}', { name: f.name }),
                confirm: (f) =>
                  t("Delete the field {{name}} and every exam's value of it?", { name: f.name }),
                onDelete: (f) => remove.mutate(f.uuid),
              }
            : undefined
        }
      />
      {mayEdit && (
        <Stack direction={{ xs: 'column', md: 'row' }} spacing={1} sx={{ alignItems: { md: 'center' } }}>
          <TextField
            size="small"
            label={t('Field name')}
            value={name}
            onChange={(e) => setName(e.target.value)}
          />
          <TextField
            select
            size="small"
            label={t('Field type')}
            value={type}
            onChange={(e) => setType(e.target.value as CustomFieldType)}
            sx={{ minWidth: 180 }}
          >
            {CUSTOM_FIELD_TYPES.map((k) => (
              <MenuItem key={k} value={k}>
                {t(TYPE_LABELS[k])}
              </MenuItem>
            ))}
          </TextField>
          {hasChoices(type) && (
            <TextField
              size="small"
              label={t('Choices (comma-separated)')}
              value={choices}
              onChange={(e) => setChoices(e.target.value)}
              sx={{ minWidth: 260 }}
            />
          )}
          <FormControlLabel
            label={t('Required')}
            control={<Checkbox checked={required} onChange={(e) => setRequired(e.target.checked)} />}
          />
          <Button
            variant="outlined"
            disabled={!name.trim() || (hasChoices(type) && !choices.trim()) || add.isPending}
            onClick={() =>
              add.mutate(
                {
                  account_id: accountId,
                  name: name.trim(),
                  type,
                  required: required ? 1 : 0,
                  options: hasChoices(type) ? choices : undefined,
                },
                {
                  onSuccess: () => {
                    setName('');
                    setChoices('');
                    setRequired(false);
                  },
                },
              )
            }
          >
            {t('Add field')}
          </Button>
        </Stack>
      )}
      {failed && <Alert severity="error">{t(refusalText(failed))}</Alert>}
    </Stack>
  );
}
