import { Link as RouterLink } from 'react-router';
import { List, ListItem, ListItemButton, ListItemText } from '@mui/material';
import { useTranslation } from '../../lib/i18n';
import { groupDisplayName, type InboxGroup } from '../../session/groups';
import { statePath } from '../../session/group-route';
import { useGroupRoute } from '../../session/use-group-route';

/** A group's study states; the routed one is selected (on /group/list, the first of the first group). */
export function StudyStateList({ group }: { group: InboxGroup }) {
  const { t } = useTranslation();
  const route = useGroupRoute();
  return (
    <List dense disablePadding aria-label={t('{{name}} states', { name: groupDisplayName(group) })}>
      {group.states.map((state) => {
        const selected = route?.kind === 'show' && route.group.uuid === group.uuid && route.state === state;
        return (
          // Each link in its own list item: a list holds items only, for screen readers to count.
          <ListItem key={state} disablePadding>
            <ListItemButton
              component={RouterLink}
              to={statePath(group, state)}
              selected={selected}
              aria-current={selected ? 'page' : undefined}
              sx={{ pl: 3 }}
            >
              <ListItemText primary={t(state)} />
            </ListItemButton>
          </ListItem>
        );
      })}
    </List>
  );
}
