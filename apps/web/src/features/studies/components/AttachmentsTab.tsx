import { useRef, useState } from 'react';
import { useQuery } from '@tanstack/react-query';
import {
  Alert,
  Box,
  Button,
  IconButton,
  Link,
  Menu,
  MenuItem,
  Table,
  TableBody,
  TableCell,
  TableHead,
  TablePagination,
  TableRow,
  Tooltip,
  Typography,
} from '@mui/material';
import AttachFile from '@mui/icons-material/AttachFile';
import Delete from '@mui/icons-material/Delete';
import Download from '@mui/icons-material/Download';
import History from '@mui/icons-material/History';
import Visibility from '@mui/icons-material/Visibility';
import type { Attachment, Study } from '@imaging-inbox/contract';
import {
  ATTACHMENT_ACCEPT,
  ATTACHMENT_ERROR_MS,
  ATTACHMENT_PAGE_ROWS,
  MESSAGES,
  SUCCESS_BANNER_MS,
} from '@imaging-inbox/contract';
import { useSnackbar } from 'notistack';
import { useTranslation } from '../../../lib/i18n';
import { formatMegabytes } from '../../../lib/format';
import { useExpiringState } from '../../../lib/use-expiring-state';
import { useDateDisplay } from '../../../lib/date-preferences';
import {
  attachmentListQuery,
  attachmentUrl,
  useDeleteAttachment,
  useUploadAttachment,
} from '../api/attachments';

type Banner = { kind: 'success' | 'error'; text: string };

/** A short type label from the stored MIME type (PDF, PNG, DOCX…). */
function typeLabel(a: Attachment): string {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(a.filename)?.[1];
  return (extension ?? a.mime.split('/')[1] ?? a.mime).toUpperCase();
}

function VersionsMenu({ study, attachment }: { study: Study; attachment: Attachment }) {
  const dates = useDateDisplay();
  const { t } = useTranslation();
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  return (
    <>
      <Tooltip title={t('Versions')}>
        <IconButton
          size="small"
          aria-label={t('Versions of {{name}}', { name: attachment.filename })}
          onClick={(e) => setAnchor(e.currentTarget)}
        >
          <History fontSize="small" />
        </IconButton>
      </Tooltip>
      <Menu open={anchor !== null} anchorEl={anchor} onClose={() => setAnchor(null)}>
        {attachment.versions.map((v) => (
          <MenuItem
            key={v.version}
            component="a"
            href={attachmentUrl(study, v.id, v.version, v.filename)}
            onClick={() => setAnchor(null)}
          >
            {t('Version {{n}}', { n: v.version })} · {dates.timestamp(new Date(v.stored).toISOString())} ·{' '}
            {formatMegabytes(v.size)}
          </MenuItem>
        ))}
      </Menu>
    </>
  );
}

/**
 * Attachments tab: add a file (type and size checked by the server), then the attached files with
 * download, inline view (PDF, images, text), versions and delete, ten per page. The success banner
 * shows 5 s, the failure banner clears after 10 s (SPEC.md sections 8 and 9).
 */
export function AttachmentsTab({ study }: { study: Study }) {
  const dates = useDateDisplay();
  const { t } = useTranslation();
  const { enqueueSnackbar } = useSnackbar();
  const [page, setPage] = useState(1);
  const [file, setFile] = useState<File | null>(null);
  const [banner, setBanner] = useExpiringState<Banner>((b) =>
    b.kind === 'success' ? SUCCESS_BANNER_MS : ATTACHMENT_ERROR_MS,
  );
  const input = useRef<HTMLInputElement>(null);
  const list = useQuery(attachmentListQuery(study.uuid, page));
  const upload = useUploadAttachment(study);
  const remove = useDeleteAttachment(study);
  const canEdit = study.permissions.study_edit === 1;

  const add = async () => {
    if (!file) return;
    try {
      await upload.mutateAsync(file);
      setBanner({ kind: 'success', text: t(MESSAGES.attachmentAdded) });
      setFile(null);
      if (input.current) input.current.value = '';
      setPage(1);
    } catch {
      setBanner({ kind: 'error', text: t(MESSAGES.attachmentFailed) });
    }
  };

  const rows = list.data?.attachments ?? [];
  return (
    <Box sx={{ display: 'flex', flexDirection: 'column', gap: 2 }}>
      {banner && (
        <Alert severity={banner.kind} onClose={() => setBanner(null)}>
          {banner.text}
        </Alert>
      )}
      {canEdit && (
        <Box sx={{ display: 'flex', gap: 1, alignItems: 'center', flexWrap: 'wrap' }}>
          <Button variant="outlined" component="label" startIcon={<AttachFile />}>
            {t('Choose file')}
            <input
              ref={input}
              hidden
              type="file"
              accept={ATTACHMENT_ACCEPT}
              aria-label={t('Attachment file')}
              onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            />
          </Button>
          <Typography variant="body2" color="text.secondary" sx={{ flex: 1, minWidth: 120 }}>
            {file ? `${file.name} (${formatMegabytes(file.size)})` : t('No file chosen')}
          </Typography>
          <Button variant="contained" disabled={!file || upload.isPending} onClick={() => void add()}>
            {t('Add')}
          </Button>
        </Box>
      )}
      {list.isError && <Alert severity="error">{t(MESSAGES.unexpectedError)}</Alert>}
      {list.isSuccess && rows.length === 0 && (
        <Typography color="text.secondary">{t('No attached files.')}</Typography>
      )}
      {rows.length > 0 && (
        <Table size="small" aria-label={t('Attached files')}>
          <TableHead>
            <TableRow>
              <TableCell>{t('Name')}</TableCell>
              <TableCell>{t('Type')}</TableCell>
              <TableCell>{t('Date')}</TableCell>
              <TableCell align="right">{t('Actions')}</TableCell>
            </TableRow>
          </TableHead>
          <TableBody>
            {rows.map((a) => (
              <TableRow key={a.id}>
                <TableCell sx={{ wordBreak: 'break-all' }}>
                  {a.filename}
                  {a.versions.length > 1 && (
                    <Typography component="span" variant="caption" color="text.secondary">
                      {' '}
                      · {t('version {{n}}', { n: a.version })}
                    </Typography>
                  )}
                </TableCell>
                <TableCell>{typeLabel(a)}</TableCell>
                <TableCell>{dates.timestamp(new Date(a.stored).toISOString())}</TableCell>
                <TableCell align="right" sx={{ whiteSpace: 'nowrap' }}>
                  <Tooltip title={t('Download')}>
                    <IconButton
                      size="small"
                      component={Link}
                      href={attachmentUrl(study, a.id, a.version, a.filename)}
                      aria-label={t('Download {{name}}', { name: a.filename })}
                    >
                      <Download fontSize="small" />
                    </IconButton>
                  </Tooltip>
                  {a.inline && (
                    <Tooltip title={t('View')}>
                      <IconButton
                        size="small"
                        component={Link}
                        href={attachmentUrl(study, a.id, a.version, a.filename, 'inline')}
                        target="_blank"
                        rel="noopener noreferrer"
                        aria-label={t('View {{name}}', { name: a.filename })}
                      >
                        <Visibility fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                  <VersionsMenu study={study} attachment={a} />
                  {canEdit && (
                    <Tooltip title={t('Delete')}>
                      <IconButton
                        size="small"
                        disabled={remove.isPending}
                        aria-label={t('Delete {{name}}', { name: a.filename })}
                        onClick={() =>
                          remove.mutate(a.id, {
                            onError: () =>
                              enqueueSnackbar(t('Failed to delete the attachment.'), { variant: 'error' }),
                          })
                        }
                      >
                        <Delete fontSize="small" />
                      </IconButton>
                    </Tooltip>
                  )}
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      {list.data && list.data.page.total > ATTACHMENT_PAGE_ROWS && (
        <TablePagination
          component="div"
          count={list.data.page.total}
          page={page - 1}
          rowsPerPage={ATTACHMENT_PAGE_ROWS}
          rowsPerPageOptions={[ATTACHMENT_PAGE_ROWS]}
          onPageChange={(_e, next) => setPage(next + 1)}
        />
      )}
    </Box>
  );
}
