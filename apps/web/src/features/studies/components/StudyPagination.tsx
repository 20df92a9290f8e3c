import { TablePagination } from '@mui/material';
import { PAGE_SIZE_OPTIONS } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';

interface Props {
  total: number | undefined;
  /** 1-based */
  page: number;
  rows: number;
  more: boolean;
  /** How many exams this page holds once it has loaded; undefined while it loads. */
  shown: number | undefined;
  onPage: (page: number) => void;
  onRows: (rows: number) => void;
}

/**
 * Page sizes 10/25/50/100 with the total; before the count arrives, `more` and the exams shown
 * decide Next and the range. Nothing is counted while the page itself loads ("1–50 of 50" on an
 * empty group would be a guess).
 */
export function StudyPagination({ total, page, rows, more, shown, onPage, onRows }: Props) {
  const { t } = useTranslation();
  const unknown = total === undefined && shown === undefined;
  return (
    <TablePagination
      component="div"
      count={total ?? (more || shown === undefined ? -1 : (page - 1) * rows + shown)}
      page={page - 1}
      rowsPerPage={rows}
      rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
      onPageChange={(_e, next) => onPage(next + 1)}
      onRowsPerPageChange={(e) => onRows(Number(e.target.value))}
      labelRowsPerPage={t('Exams per page')}
      sx={{
        borderTop: 1,
        borderColor: 'divider',
        bgcolor: 'background.paper',
        flexShrink: 0,
        '& .MuiTablePagination-displayedRows': { visibility: unknown ? 'hidden' : 'visible' },
      }}
    />
  );
}
