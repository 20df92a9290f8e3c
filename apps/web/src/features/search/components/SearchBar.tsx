import { useEffect, useMemo, useState } from 'react';
import { useNavigate } from 'react-router';
import {
  Badge,
  Box,
  Button,
  Collapse,
  FormControl,
  InputLabel,
  MenuItem,
  Select,
  TextField,
} from '@mui/material';
import Tune from '@mui/icons-material/Tune';
import { ALL_MY_GROUPS } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { cutName } from '../../../lib/format';
import { useInbox } from '../../../session/inbox-context';
import { statePath } from '../../../session/group-route';
import { stateFilters } from '../../../session/state-filters';
import { useGroupRoute } from '../../../session/use-group-route';
import { groupDisplayName } from '../../../session/groups';
import type { AdvancedFilters } from '../lib/advanced-filters';
import { countAdvancedFilters } from '../lib/search-filters';
import { useSearch } from '../search-context';
import { AdvancedSearchPanel } from './AdvancedSearchPanel';

/**
 * Patient name box, group dropdown (All My Groups first), advanced-search toggle, Search and Clear
 * Search. The inputs are disabled while the advanced panel is open.
 */
export function SearchBar() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { groups } = useInbox();
  const route = useGroupRoute();
  const { state, dispatch } = useSearch();
  const routedGroupId = route?.kind === 'show' ? route.group.uuid : '';
  const [groupId, setGroupId] = useState(routedGroupId);
  useEffect(() => setGroupId(routedGroupId), [routedGroupId]);

  const dropdownGroups = [
    ...groups.filter((g) => g.uuid === ALL_MY_GROUPS.uuid),
    ...groups.filter((g) => g.uuid !== ALL_MY_GROUPS.uuid),
  ];
  const disabled = state.advancedOpen;
  // Off a group's page (settings, requests) the box shows where Search goes: the first group.
  const shownGroupId = groups.some((g) => g.uuid === groupId) ? groupId : (dropdownGroups[0]?.uuid ?? '');

  /** Opens the chosen group's first state unless it is the one shown; the page goes back to 1. */
  const goToChosenGroup = () => {
    const group = groups.find((g) => g.uuid === shownGroupId);
    if (!group) return;
    if (route?.kind === 'show' && route.group.uuid === group.uuid) return;
    void navigate(statePath(group, group.states[0] ?? 'Inbox'));
  };

  const onSearch = (event: React.FormEvent) => {
    event.preventDefault();
    dispatch({ type: 'search' });
    goToChosenGroup();
  };

  const onAdvancedSearch = (filters: AdvancedFilters) => {
    dispatch({ type: 'applyAdvanced', filters });
    const group = groups.find((g) => g.uuid === shownGroupId);
    if (group) void navigate(statePath(group, group.states[0] ?? 'Inbox'));
  };

  const advancedCount = countAdvancedFilters(state.applied.advanced, new Date());
  // The advanced panel previews its match count where its Search goes: the chosen group's first state.
  const searchGroup = groups.find((g) => g.uuid === shownGroupId);
  const countScope = useMemo(
    () => (searchGroup ? stateFilters(searchGroup, searchGroup.states[0] ?? 'Inbox') : null),
    [searchGroup],
  );

  return (
    <Box sx={{ bgcolor: 'background.paper', borderBottom: 1, borderColor: 'divider' }}>
      <Box
        component="form"
        role="search"
        aria-label={t('Study search')}
        onSubmit={onSearch}
        // One row at 1280 px in every language: the name and group boxes give up width before a
        // button would wrap onto a row of its own ("EFFACER LA RECHERCHE"); buttons keep one line.
        sx={{
          display: 'flex',
          gap: 1.5,
          alignItems: 'center',
          p: 1.5,
          flexWrap: 'wrap',
          '& .MuiButton-root': { whiteSpace: 'nowrap', flexShrink: 0 },
        }}
      >
        <TextField
          size="small"
          label={t('Patient name')}
          value={state.patientNameDraft}
          disabled={disabled}
          onChange={(e) => dispatch({ type: 'typePatientName', value: e.target.value })}
          sx={{ minWidth: 150, flex: '1 1 150px', maxWidth: 420 }}
        />
        <FormControl
          size="small"
          sx={{ flex: '1 1 190px', minWidth: 170, maxWidth: 240 }}
          disabled={disabled}
        >
          <InputLabel id="search-group-label">{t('Group')}</InputLabel>
          <Select
            labelId="search-group-label"
            label={t('Group')}
            value={shownGroupId}
            onChange={(e) => setGroupId(e.target.value)}
          >
            {dropdownGroups.map((g) => (
              <MenuItem key={g.uuid} value={g.uuid} title={groupDisplayName(g)}>
                {cutName(groupDisplayName(g))}
              </MenuItem>
            ))}
          </Select>
        </FormControl>
        <Badge badgeContent={advancedCount} color="secondary">
          <Button
            variant={state.advancedOpen ? 'contained' : 'outlined'}
            startIcon={<Tune />}
            aria-expanded={state.advancedOpen}
            aria-controls="advanced-search-panel"
            onClick={() => dispatch({ type: 'toggleAdvanced' })}
          >
            {t('Advanced search')}
          </Button>
        </Badge>
        <Button type="submit" variant="contained" disabled={disabled}>
          {t('Search')}
        </Button>
        <Button type="button" disabled={disabled} onClick={() => dispatch({ type: 'clear' })}>
          {t('Clear Search')}
        </Button>
      </Box>
      <Collapse in={state.advancedOpen} unmountOnExit>
        <AdvancedSearchPanel
          id="advanced-search-panel"
          initial={{ ...state.applied.advanced, patientName: state.patientNameDraft }}
          onSearch={onAdvancedSearch}
          countScope={countScope}
        />
      </Collapse>
    </Box>
  );
}
