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
    // A flex gap, not Stack's margins: a button that wraps onto the next line starts at its left edge.
    <Stack direction="row" useFlexGap spacing={1} sx={{ px: 2, pt: 1, flexWrap: 'wrap' }}>
      {actions.map((action) => (
        <Button
          key={action.route}
          size="small"
          variant="outlined"
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
