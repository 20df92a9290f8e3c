import { Checkbox, FormControl, InputLabel, ListItemText, MenuItem, Select } from '@mui/material';
import { MODALITIES } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import {
  ALL_MODALITIES_OPTION,
  modalityLabel,
  toggleModality,
  type ModalitySelection,
} from '../lib/modality-selection';

/** Modality multi-select with an All option, showing 'All' or 'N Selected'. */
export function ModalitySelect({
  value,
  onChange,
}: {
  value: ModalitySelection;
  onChange: (value: ModalitySelection) => void;
}) {
  const { t } = useTranslation();
  const selectedValues = value.all ? [ALL_MODALITIES_OPTION, ...value.selected] : value.selected;
  return (
    <FormControl size="small">
      <InputLabel id="modality-label" shrink>
        {t('Modality')}
      </InputLabel>
      <Select
        labelId="modality-label"
        label={t('Modality')}
        multiple
        displayEmpty
        notched
        value={selectedValues}
        renderValue={() => {
          const label = modalityLabel(value);
          return value.all ? t(label) : t('{{count}} Selected', { count: value.selected.length });
        }}
        onChange={() => undefined}
        MenuProps={{ slotProps: { paper: { sx: { maxHeight: 360 } } } }}
      >
        {[ALL_MODALITIES_OPTION, ...MODALITIES].map((option) => {
          const checked = option === ALL_MODALITIES_OPTION ? value.all : value.selected.includes(option);
          return (
            <MenuItem
              key={option}
              value={option}
              dense
              onClick={() => onChange(toggleModality(value, option))}
            >
              <Checkbox size="small" checked={checked} tabIndex={-1} disableRipple />
              <ListItemText primary={option === ALL_MODALITIES_OPTION ? t('All') : option} />
            </MenuItem>
          );
        })}
      </Select>
    </FormControl>
  );
}
