import { useEffect, useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Box,
  Button,
  Checkbox,
  FormControlLabel,
  FormGroup,
  LinearProgress,
  MenuItem,
  TextField,
  Typography,
} from '@mui/material';
import Album from '@mui/icons-material/Album';
import Download from '@mui/icons-material/Download';
import type { Study } from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes } from '../../../lib/format';
import { useAnonymizationProfiles } from '../../privacy';
import { useInbox } from '../../../session/inbox-context';
import { studiesDownload, studyDownload, type DownloadBundle } from '../api/study-download';
import { studySeriesQuery } from '../api/study-series';
import { downloadFile, percent, type DownloadProgress } from '../lib/download';
import { refusedForBurnedInText, refusedNotice } from '../lib/deidentified';
import { seriesParam } from '../lib/series';

function SeriesPicker({
  study,
  chosen,
  onChange,
}: {
  study: Study;
  chosen: Set<string> | null;
  onChange: (next: Set<string>) => void;
}) {
  const { t } = useTranslation();
  const series = useQuery(studySeriesQuery(study.study_uid));
  if (series.isPending) return <Typography color="text.secondary">{t('Loading')}</Typography>;
  if (series.isError) return <Typography color="text.secondary">{t('Series are not available.')}</Typography>;
  const all = series.data;
  const picked = chosen ?? new Set(all.map((s) => s.uid));
  const toggle = (uid: string, on: boolean) => {
    const next = new Set(picked);
    if (on) next.add(uid);
    else next.delete(uid);
    onChange(next);
  };
  return (
    <FormGroup aria-label={t('Series')}>
      <FormControlLabel
        label={t('All series')}
        control={
          <Checkbox
            checked={picked.size === all.length}
            indeterminate={picked.size > 0 && picked.size < all.length}
            onChange={(e) => onChange(new Set(e.target.checked ? all.map((s) => s.uid) : []))}
          />
        }
      />
      {all.map((s, index) => (
        <FormControlLabel
          key={s.uid}
          sx={{ pl: 2 }}
          label={`${s.modality || '—'} · ${s.description || t('Series {{n}}', { n: s.number ?? index + 1 })} · ${t('{{count}} images', { count: s.instances })}`}
          control={<Checkbox checked={picked.has(s.uid)} onChange={(e) => toggle(s.uid, e.target.checked)} />}
        />
      ))}
    </FormGroup>
  );
}

/**
 * "De-identify" and the account's profile to do it with (study_download_anonymized only). A caller
 * who may not list the profiles, or an account without any, sees the box disabled with the reason.
 */
function DeidentifyChoice({
  profileId,
  onChange,
  disabled,
}: {
  /** null: an identified download */
  profileId: string | null;
  onChange: (next: string | null) => void;
  disabled: boolean;
}) {
  const { t } = useTranslation();
  // The exam is in the signed-in account, whose profiles these are (the server checks the study's).
  const profiles = useAnonymizationProfiles(useInbox().account.uuid);
  const list = profiles.data ?? [];
  const unavailable = profiles.isError || (profiles.isSuccess && list.length === 0);
  const chosen =
    profileId !== null && list.some((p) => p.uuid === profileId) ? profileId : (list[0]?.uuid ?? '');
  return (
    <Box sx={{ display: 'flex', flexWrap: 'wrap', alignItems: 'center', gap: 2 }}>
      <FormControlLabel
        label={t('De-identify')}
        control={
          <Checkbox
            checked={profileId !== null}
            disabled={disabled || unavailable || !profiles.isSuccess}
            onChange={(e) => onChange(e.target.checked ? (list[0]?.uuid ?? null) : null)}
          />
        }
      />
      {profileId !== null && (
        <TextField
          select
          size="small"
          label={t('De-identification profile')}
          value={chosen}
          disabled={disabled}
          sx={{ minWidth: 260 }}
          onChange={(e) => onChange(e.target.value)}
        >
          {list.map((p) => (
            <MenuItem key={p.uuid} value={p.uuid}>
              {p.name}
            </MenuItem>
          ))}
        </TextField>
      )}
      {unavailable && (
        <Typography variant="body2" color="text.secondary">
          {t('No de-identification profile is available to you.')}
        </Typography>
      )}
    </Box>
  );
}

/**
 * Downloads tab: the study (or chosen series) as a ZIP with a DICOMDIR, or the same files as an
 * ISO 9660 image to burn on a CD; for a multi-selection all selected studies in one archive. Progress is counted in the page from the body stream.
 */
export function DownloadsTab({ studies }: { studies: Study[] }) {
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const single = studies.length === 1 ? studies[0] : undefined;
  const [chosen, setChosen] = useState<Set<string> | null>(null);
  const [progress, setProgress] = useState<DownloadProgress | null>(null);
  // A de-identified download (one study only: the storage download takes a profile).
  const [profileId, setProfileId] = useState<string | null>(null);
  const mayDeidentify = single?.permissions.study_download_anonymized === 1;
  const abort = useRef<AbortController | null>(null);
  const series = useQuery({ ...studySeriesQuery(single?.study_uid ?? ''), enabled: single !== undefined });
  useEffect(() => () => abort.current?.abort(), []);

  const seriesChoice = single && series.data && chosen ? seriesParam(series.data, chosen) : undefined;
  const busy = progress !== null;
  const size = studies.reduce((sum, s) => sum + s.size, 0);

  const start = async (bundle: DownloadBundle) => {
    if (seriesChoice === null) return;
    const controller = new AbortController();
    abort.current = controller;
    const deidentify = mayDeidentify && profileId !== null ? profileId : undefined;
    const open = single
      ? studyDownload(single, seriesChoice, bundle, deidentify)
      : studiesDownload(studies, bundle);
    const extension = bundle === 'iso' ? 'iso' : 'zip';
    const fallback = single ? `study_${single.study_uid}.${extension}` : `studies.${extension}`;
    setProgress({ loaded: 0, total: null });
    try {
      const { refused } = await downloadFile(open, fallback, setProgress, controller.signal);
      const leftOut = refusedNotice(refused, t);
      if (leftOut) enqueueSnackbar(`${t('Download complete')}. ${leftOut}`, { variant: 'warning' });
      else enqueueSnackbar(t('Download complete'), { variant: 'success' });
    } catch (error) {
      if (refusedForBurnedInText(error)) {
        enqueueSnackbar(
          t(
            'Not downloaded: every image of this exam may show burned-in patient text, which de-identification cannot remove.',
          ),
          { variant: 'error' },
        );
      } else if (!(error instanceof DOMException && error.name === 'AbortError')) {
        enqueueSnackbar(t('Failed to download exam(s)'), { variant: 'error' });
      }
    } finally {
      abort.current = null;
      setProgress(null);
    }
  };

  const done = progress ? percent(progress) : null;
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      <Typography variant="body2" color="text.secondary">
        {single
          ? t('A ZIP of the DICOM files with a DICOMDIR ({{size}}).', { size: formatMegabytes(size) })
          : t('{{count}} exams in one ZIP with a DICOMDIR ({{size}}).', {
              count: studies.length,
              size: formatMegabytes(size),
            })}
      </Typography>
      {single && <SeriesPicker study={single} chosen={chosen} onChange={setChosen} />}
      {single && mayDeidentify && (
        <DeidentifyChoice profileId={profileId} onChange={setProfileId} disabled={busy} />
      )}
      <Box sx={{ display: 'flex', gap: 1 }}>
        <Button
          variant="contained"
          startIcon={<Download />}
          disabled={busy || seriesChoice === null}
          onClick={() => void start('dicom')}
        >
          {t('Download')}
        </Button>
        <Button
          variant="outlined"
          startIcon={<Album />}
          disabled={busy || seriesChoice === null}
          onClick={() => void start('iso')}
        >
          {t('Download ISO')}
        </Button>
        {busy && <Button onClick={() => abort.current?.abort()}>{t('Cancel')}</Button>}
      </Box>
      {progress && (
        <Box role="status" aria-label={t('Download progress')}>
          <LinearProgress
            variant={done === null ? 'indeterminate' : 'determinate'}
            value={done ?? undefined}
          />
          <Typography variant="caption" color="text.secondary">
            {done === null
              ? formatMegabytes(progress.loaded)
              : `${done}% · ${formatMegabytes(progress.loaded)} / ${formatMegabytes(progress.total ?? 0)}`}
          </Typography>
        </Box>
      )}
    </Box>
  );
}
