import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Autocomplete,
  Box,
  Button,
  IconButton,
  List,
  ListItem,
  ListItemText,
  TextField,
  Typography,
} from '@mui/material';
import Close from '@mui/icons-material/Close';
import { MESSAGES, type Study, MAX_SHARE_MESSAGE } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { shareListQuery } from '../api/share-list';
import { useStopShare } from '../api/share-stop';
import type { ShareableGroup, ShareableUser } from '@imaging-inbox/contract';
import { shareableGroupsQuery, shareableUsersQuery } from '../api/share-who';
import { useShareStudies } from '../api/study-share';
import { canSubmitShare, shareKinds, shareMessage } from '../lib/exam-actions';
import { refusedNotice } from '../lib/deidentified';

/** Who has access to one study, with stop-sharing. */
function ShareList({ study }: { study: Study }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const shares = useQuery(shareListQuery(study.uuid));
  const stop = useStopShare();
  if (shares.isPending) return <Typography color="text.secondary">{t('Loading')}</Typography>;
  if (shares.isError) return <Typography color="text.secondary">{t('Shares are not available.')}</Typography>;
  const { owner, shares: list } = shares.data;
  return (
    <List dense disablePadding aria-label={t('Shared with')}>
      <ListItem disableGutters>
        <ListItemText primary={owner.name} secondary={t('Exam owner')} />
      </ListItem>
      {list.length === 0 && (
        <ListItem disableGutters>
          <ListItemText secondary={t(MESSAGES.notShared)} />
        </ListItem>
      )}
      {list.map((share) => (
        <ListItem
          key={`${share.type}-${share.uuid}`}
          disableGutters
          secondaryAction={
            <IconButton
              edge="end"
              aria-label={t('Stop sharing with {{name}}', { name: share.name })}
              disabled={stop.isPending}
              onClick={() =>
                stop.mutate(
                  { uuid: study.uuid, share },
                  {
                    onSuccess: () => enqueueSnackbar(t('Stopped sharing'), { variant: 'success' }),
                    onError: () => enqueueSnackbar(t('Failed to stop sharing'), { variant: 'error' }),
                  },
                )
              }
            >
              <Close />
            </IconButton>
          }
        >
          <ListItemText
            primary={`${share.name}${share.type === 'group' ? ` (${t('group')})` : ''}`}
            secondary={share.message || share.user_email || undefined}
          />
        </ListItem>
      ))}
    </List>
  );
}

/** Share tab: users and groups of the account, an optional message, and who has access. */
export function ShareTab({ studies }: { studies: Study[] }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const kinds = shareKinds(studies);
  const first = studies[0];
  const [users, setUsers] = useState<ShareableUser[]>([]);
  const [groups, setGroups] = useState<ShareableGroup[]>([]);
  const [message, setMessage] = useState('');
  // Recipients are looked up on the first study; the server refuses any that do not fit the others.
  const userOptions = useQuery(shareableUsersQuery(first?.uuid ?? '', kinds.users && first !== undefined));
  const groupOptions = useQuery(shareableGroupsQuery(first?.uuid ?? '', kinds.groups && first !== undefined));
  const share = useShareStudies();

  if (!first || (!kinds.users && !kinds.groups)) {
    return <Alert severity="info">{t(MESSAGES.contentNotPermitted)}</Alert>;
  }
  const userIds = users.map((u) => u.uuid);
  const groupIds = groups.map((g) => g.uuid);
  // mutateAsync: the snackbar still shows if the panel is closed while the share runs.
  const submit = async () => {
    try {
      const outcome = await share.mutateAsync({
        uuids: studies.map((s) => s.uuid),
        userIds,
        groupIds,
        message: shareMessage(message),
      });
      // What a de-identifying group left out of its copies, or refused outright, is said in words.
      const leftOut = refusedNotice(outcome.refused, t);
      if (leftOut && outcome.succeeded.length > 0)
        enqueueSnackbar(`${t('Shared de-identified.')} ${leftOut}`, { variant: 'warning' });
      if (outcome.burnedIn > 0) {
        enqueueSnackbar(
          t(
            'Not shared: every image of this exam may show burned-in patient text, which de-identification cannot remove.',
          ),
          { variant: 'error' },
        );
      }
      if (outcome.failed.length > outcome.burnedIn) throw new Error('share failed');
      if (outcome.failed.length > 0) return;
      if (!leftOut) enqueueSnackbar(t(MESSAGES.shareDone), { variant: 'success' });
      setUsers([]);
      setGroups([]);
      setMessage('');
    } catch {
      enqueueSnackbar(t(MESSAGES.shareFailed), { variant: 'error' });
    }
  };

  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {kinds.users && (
        <Autocomplete
          multiple
          options={userOptions.data ?? []}
          loading={userOptions.isPending}
          value={users}
          onChange={(_e, value) => setUsers(value)}
          getOptionLabel={(u) => (u.name ? `${u.name} <${u.user_email}>` : u.user_email)}
          isOptionEqualToValue={(a, b) => a.uuid === b.uuid}
          renderInput={(params) => <TextField {...params} label={t('Users')} />}
        />
      )}
      {kinds.groups && (
        <Autocomplete
          multiple
          options={groupOptions.data ?? []}
          loading={groupOptions.isPending}
          value={groups}
          onChange={(_e, value) => setGroups(value)}
          getOptionLabel={(g) => g.name}
          isOptionEqualToValue={(a, b) => a.uuid === b.uuid}
          renderInput={(params) => <TextField {...params} label={t('Groups')} />}
        />
      )}
      <TextField
        label={t('Message')}
        multiline
        minRows={2}
        value={message}
        slotProps={{ htmlInput: { maxLength: MAX_SHARE_MESSAGE } }}
        onChange={(e) => setMessage(e.target.value)}
      />
      <Box>
        <Button
          variant="contained"
          disabled={!canSubmitShare(userIds, groupIds, share.isPending)}
          onClick={() => void submit()}
        >
          {t('Share')}
        </Button>
      </Box>
      {studies.length === 1 && (
        <Box>
          <Typography variant="subtitle2" component="h3" gutterBottom>
            {t('Who has access')}
          </Typography>
          <ShareList study={first} />
        </Box>
      )}
    </Box>
  );
}
