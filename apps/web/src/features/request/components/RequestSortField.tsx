import { MenuItem, TextField } from '@mui/material';
import { LINK_SORT_OPTIONS, type LinkSort } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';

/** The pending-requests sort (SPEC.md section 9): newest or oldest case, sending institution. */
export function RequestSortField({
  value,
  onChange,
}: {
  value: LinkSort;
  onChange: (sort: LinkSort) => void;
}) {
  const { t } = useTranslation();
  return (
    <TextField
      select
      size="small"
      label={t('Sort by')}
      value={value}
      onChange={(e) => onChange(e.target.value as LinkSort)}
      sx={{ minWidth: 240 }}
    >
      {LINK_SORT_OPTIONS.map((o) => (
        <MenuItem key={o.value} value={o.value}>
          {t(o.label)}
        </MenuItem>
      ))}
    </TextField>
  );
}
