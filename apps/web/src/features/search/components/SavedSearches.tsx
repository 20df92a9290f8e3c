import { useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  Menu,
  MenuItem,
  TextField,
} from '@mui/material';
import BookmarkAdd from '@mui/icons-material/BookmarkAdd';
import Bookmarks from '@mui/icons-material/Bookmarks';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { savedSearchesQuery, useSaveSearches, withSavedSearch } from '../api/saved-searches';
import type { AdvancedFilters } from '../lib/advanced-filters';

/** Save the panel's filters under a name (setting/set) and apply a saved one to the panel. */
export function SavedSearches({
  current,
  onApply,
}: {
  current: AdvancedFilters;
  onApply: (f: AdvancedFilters) => void;
}) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const saved = useQuery(savedSearchesQuery());
  const save = useSaveSearches();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const [naming, setNaming] = useState(false);
  const [name, setName] = useState('');
  const list = saved.data ?? [];

  const submitName = () => {
    const trimmed = name.trim();
    if (!trimmed) return;
    save.mutate(withSavedSearch(list, { name: trimmed, filters: current }), {
      onSuccess: () => {
        setNaming(false);
        setName('');
        enqueueSnackbar(t('Search saved'), { variant: 'success' });
      },
      onError: () => enqueueSnackbar(t('Failed to save the search'), { variant: 'error' }),
    });
  };

  return (
    <>
      <Button
        startIcon={<Bookmarks />}
        aria-haspopup="menu"
        aria-expanded={anchor ? 'true' : undefined}
        onClick={(e) => setAnchor(e.currentTarget)}
      >
        {t('Saved searches')}
      </Button>
      <Menu anchorEl={anchor} open={anchor !== null} onClose={() => setAnchor(null)}>
        {list.length === 0 && <MenuItem disabled>{t('No saved searches')}</MenuItem>}
        {list.map((s) => (
          <MenuItem
            key={s.name}
            onClick={() => {
              onApply(s.filters);
              setAnchor(null);
            }}
          >
            {s.name}
          </MenuItem>
        ))}
      </Menu>
      <Button startIcon={<BookmarkAdd />} onClick={() => setNaming(true)}>
        {t('Save search')}
      </Button>
      <Dialog open={naming} onClose={() => setNaming(false)} aria-labelledby="save-search-title">
        <DialogTitle id="save-search-title">{t('Save search')}</DialogTitle>
        <DialogContent>
          <TextField
            autoFocus
            margin="dense"
            label={t('Search name')}
            value={name}
            fullWidth
            onChange={(e) => setName(e.target.value)}
            onKeyDown={(e) => {
              if (e.key === 'Enter') {
                e.preventDefault();
                submitName();
              }
            }}
          />
        </DialogContent>
        <DialogActions>
          <Button onClick={() => setNaming(false)}>{t('Cancel')}</Button>
          <Button variant="contained" disabled={!name.trim()} loading={save.isPending} onClick={submitName}>
            {t('Save')}
          </Button>
        </DialogActions>
      </Dialog>
    </>
  );
}
