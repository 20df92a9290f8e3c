import { useState } from 'react';
import {
  Alert,
  Button,
  Checkbox,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  FormControlLabel,
  FormGroup,
  FormLabel,
  Stack,
  TextField,
} from '@mui/material';
import type { DicomNode } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useAccountGroups } from '../api/groups';
import { useSetDicomNode } from '../api/group-settings';

/**
 * What a registered DICOM node may do as a query/retrieve peer (decision 0061): the groups it may
 * query (C-FIND), whether it may retrieve from them (C-MOVE, C-GET), and the port it listens on as
 * a C-MOVE destination. The server checks each field again (dicom/node/set).
 */
export function NodePeerDialog({ node, onClose }: { node: DicomNode; onClose: () => void }) {
  const { t } = useTranslation();
  const groups = useAccountGroups(node.account_id);
  const save = useSetDicomNode();
  const [queryGroups, setQueryGroups] = useState<string[]>(node.query_group_ids);
  const [mayRetrieve, setMayRetrieve] = useState(node.may_retrieve === 1);
  const [port, setPort] = useState(node.port === null ? '' : String(node.port));
  const portProblem =
    port.trim() && (!/^\d+$/.test(port.trim()) || Number(port) < 1 || Number(port) > 65535)
      ? t('A port from 1 to 65535')
      : undefined;
  const refused = errorBody(save.error);
  const toggle = (uuid: string, on: boolean) =>
    setQueryGroups(on ? [...queryGroups, uuid] : queryGroups.filter((g) => g !== uuid));

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{t('Query and retrieve by {{name}}', { name: node.name || node.ae_title })}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ mt: 1 }}>
          <FormGroup>
            <FormLabel>{t('Groups it may query (C-FIND)')}</FormLabel>
            {(groups.data ?? []).map((g) => (
              <FormControlLabel
                key={g.uuid}
                control={
                  <Checkbox
                    checked={queryGroups.includes(g.uuid)}
                    onChange={(e) => toggle(g.uuid, e.target.checked)}
                  />
                }
                label={g.name}
              />
            ))}
          </FormGroup>
          <FormControlLabel
            control={<Checkbox checked={mayRetrieve} onChange={(e) => setMayRetrieve(e.target.checked)} />}
            label={t('May retrieve from them (C-MOVE, C-GET)')}
          />
          <TextField
            label={t('Port it listens on for C-MOVE (empty: none)')}
            value={port}
            onChange={(e) => setPort(e.target.value)}
            error={Boolean(portProblem)}
            helperText={portProblem}
          />
          {save.isError && (
            <Alert severity="error">
              {typeof refused?.error_data === 'string'
                ? `${refused.error_subtype ?? ''}: ${refused.error_data}`
                : t('The sender was not saved')}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('Cancel')}</Button>
        <Button
          variant="contained"
          disabled={Boolean(portProblem) || save.isPending}
          onClick={() =>
            save.mutate(
              {
                uuid: node.uuid,
                query_group_ids: queryGroups.join(','),
                may_retrieve: mayRetrieve ? '1' : '0',
                port: port.trim(),
              },
              { onSuccess: onClose },
            )
          }
        >
          {t('Save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
