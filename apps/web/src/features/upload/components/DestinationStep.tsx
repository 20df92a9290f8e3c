import { Alert, FormControl, InputLabel, MenuItem, Select } from '@mui/material';
import type { GroupSummary } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { cutName } from '../../../lib/format';

/** Step 1: the cloud group (with study_upload) that receives the exams. */
export function DestinationStep({
  destinations,
  value,
  onChange,
}: {
  destinations: GroupSummary[];
  value: string | null;
  onChange: (namespaceId: string) => void;
}) {
  const { t } = useTranslation();
  if (destinations.length === 0) {
    return <Alert severity="info">{t('You have no group you can upload exams to.')}</Alert>;
  }
  return (
    <FormControl sx={{ minWidth: 320 }}>
      <InputLabel id="upload-destination-label">{t('Destination')}</InputLabel>
      <Select
        labelId="upload-destination-label"
        label={t('Destination')}
        value={value ?? ''}
        onChange={(event) => onChange(event.target.value)}
      >
        {destinations.map((g) => (
          <MenuItem key={g.namespace_id} value={g.namespace_id}>
            {cutName(g.name)}
          </MenuItem>
        ))}
      </Select>
    </FormControl>
  );
}
