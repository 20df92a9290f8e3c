import { useState } from 'react';
import {
  Alert,
  Button,
  Dialog,
  DialogActions,
  DialogContent,
  DialogTitle,
  MenuItem,
  Stack,
  TextField,
} from '@mui/material';
import {
  LABEL_KEY_MAX_LENGTH,
  LABEL_TEXT_MAX_LENGTH,
  LANGUAGE_NAMES,
  SUPPORTED_LANGUAGES,
  type LabelOverride,
  type Language,
} from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { errorBody } from '../../../lib/api-error';
import { useSetLabel } from '../api/labels';

interface Props {
  accountId: string;
  /** The override being edited (its language and original stay), or none to add one. */
  editing: LabelOverride | undefined;
  /** Original texts to offer while typing (the app's known labels). */
  knownTexts: readonly string[];
  onClose: () => void;
}

const KNOWN_TEXTS_ID = 'label-known-texts';

/** Add or edit one replacement: language, the original English text, the text shown instead. */
export function LabelDialog({ accountId, editing, knownTexts, onClose }: Props) {
  const { t } = useTranslation();
  const save = useSetLabel(accountId);
  const [language, setLanguage] = useState<Language>(editing?.language ?? 'en');
  const [key, setKey] = useState(editing?.key ?? '');
  const [text, setText] = useState(editing?.text ?? '');
  const refusal = save.isError ? errorBody(save.error) : undefined;
  const problem = !key.trim()
    ? t('Original text is required')
    : !text.trim()
      ? t('Replacement is required')
      : key.length > LABEL_KEY_MAX_LENGTH || text.length > LABEL_TEXT_MAX_LENGTH
        ? t('Too long')
        : null;

  return (
    <Dialog open onClose={onClose} fullWidth maxWidth="sm">
      <DialogTitle>{editing ? t('Edit label') : t('Add label')}</DialogTitle>
      <DialogContent>
        <Stack spacing={2} sx={{ pt: 1 }}>
          <TextField
            select
            label={t('Language')}
            value={language}
            disabled={!!editing}
            onChange={(e) => setLanguage(e.target.value as Language)}
          >
            {SUPPORTED_LANGUAGES.map((l) => (
              <MenuItem key={l} value={l}>
                {LANGUAGE_NAMES[l]}
              </MenuItem>
            ))}
          </TextField>
          <TextField
            label={t('Original text')}
            helperText={t('The English text of the label, as the app shows it in English')}
            value={key}
            disabled={!!editing}
            onChange={(e) => setKey(e.target.value)}
            slotProps={{ htmlInput: { list: KNOWN_TEXTS_ID, maxLength: LABEL_KEY_MAX_LENGTH } }}
          />
          <datalist id={KNOWN_TEXTS_ID}>
            {knownTexts.map((known) => (
              <option key={known} value={known} />
            ))}
          </datalist>
          <TextField
            label={t('Replacement')}
            value={text}
            onChange={(e) => setText(e.target.value)}
            slotProps={{ htmlInput: { maxLength: LABEL_TEXT_MAX_LENGTH } }}
          />
          {refusal && (
            <Alert severity="error">
              {typeof refusal.error_data === 'string'
                ? refusal.error_data
                : t('The label could not be saved.')}
            </Alert>
          )}
        </Stack>
      </DialogContent>
      <DialogActions>
        <Button onClick={onClose}>{t('Cancel')}</Button>
        <Button
          variant="contained"
          disabled={!!problem || save.isPending}
          title={problem ?? undefined}
          onClick={() =>
            save.mutate({ language, key: key.trim(), text: text.trim() }, { onSuccess: onClose })
          }
        >
          {t('Save')}
        </Button>
      </DialogActions>
    </Dialog>
  );
}
