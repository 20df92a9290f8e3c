import { useNavigate } from 'react-router';
import { Button, Stack } from '@mui/material';
import { useTranslation } from '../../lib/i18n';
import { useSearch } from '../../features/search';
import { groupActions } from './group-actions';
import type { InboxGroup } from '../../session/groups';

/** Cloud-group action buttons the user's permissions allow; they clear the search first. */
export function GroupActions({ group }: { group: InboxGroup }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { dispatch } = useSearch();
  const actions = groupActions(group);
  if (actions.length === 0) return null;
  return (
    // One full-width button per line: side by side, Retrieve Study wrapped under Request Study with
    // another width and start (and in French and Spanish the labels are longer still).
    <Stack direction="column" useFlexGap spacing={1} sx={{ px: 2, pt: 1 }}>
      {actions.map((action) => (
        <Button
          key={action.route}
          size="small"
          variant="outlined"
          fullWidth
          onClick={() => {
            dispatch({ type: 'clear' });
            void navigate(action.route);
          }}
        >
          {t(action.label)}
        </Button>
      ))}
    </Stack>
  );
}
