import { useEffect, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import { Autocomplete, TextField } from '@mui/material';
import { LONG_DEBOUNCE_MS, TAGS_SHOWN_BEFORE_COUNT } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';
import { STORAGE_KEYS, readJson, writeJson } from '../../../lib/storage';
import { useDebouncedValue } from '../../../lib/use-debounced-value';
import { tagListQuery } from '../api/list-tags';

/**
 * Tags type-ahead: suggestions from tag/list after the long debounce. Out of focus it shows two
 * tags, then how many more are selected (three chips at most, SPEC.md section 9).
 */
export function TagsInput({ value, onChange }: { value: string[]; onChange: (tags: string[]) => void }) {
  const { t } = useTranslation();
  const [input, setInput] = useState('');
  const debounced = useDebouncedValue(input.trim(), LONG_DEBOUNCE_MS);
  // An empty query resets the suggestions.
  const suggestions = useQuery({
    ...tagListQuery(debounced),
    enabled: debounced !== '' && input.trim() !== '',
  });
  const options = input.trim() === '' ? [] : (suggestions.data?.tags.map((x) => x.tag) ?? []);
  // Tags seen this session are kept under the `tags` key for the other tag pickers.
  useEffect(() => {
    const seen = suggestions.data?.tags.map((x) => x.tag) ?? [];
    if (seen.length === 0) return;
    const known = new Set(readJson<string[]>(STORAGE_KEYS.tags) ?? []);
    for (const tag of seen) known.add(tag);
    writeJson(STORAGE_KEYS.tags, [...known].sort());
  }, [suggestions.data]);
  return (
    <Autocomplete
      multiple
      freeSolo
      size="small"
      limitTags={TAGS_SHOWN_BEFORE_COUNT}
      getLimitTagsText={(more) => t('+{{count}} selected', { count: more })}
      options={options}
      filterOptions={(x) => x}
      value={value}
      inputValue={input}
      loading={suggestions.isFetching}
      onInputChange={(_e, text) => setInput(text)}
      onChange={(_e, tags) => onChange(tags.map((tag) => tag.trim()).filter(Boolean))}
      renderInput={(params) => <TextField {...params} label={t('Tags')} />}
    />
  );
}
