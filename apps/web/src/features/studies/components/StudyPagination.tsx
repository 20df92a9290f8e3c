import { TablePagination } from '@mui/material';
import { PAGE_SIZE_OPTIONS } from '@imaging-inbox/contract';
import { useTranslation } from '../../../lib/i18n';

interface Props {
  total: number | undefined;
  /** 1-based */
  page: number;
  rows: number;
  more: boolean;
  onPage: (page: number) => void;
  onRows: (rows: number) => void;
}

/** Page sizes 10/25/50/100 with the total; before the count arrives, `more` decides Next. */
export function StudyPagination({ total, page, rows, more, onPage, onRows }: Props) {
  const { t } = useTranslation();
  return (
    <TablePagination
      component="div"
      count={total ?? (more ? -1 : (page - 1) * rows + rows)}
      page={page - 1}
      rowsPerPage={rows}
      rowsPerPageOptions={[...PAGE_SIZE_OPTIONS]}
      onPageChange={(_e, next) => onPage(next + 1)}
      onRowsPerPageChange={(e) => onRows(Number(e.target.value))}
      labelRowsPerPage={t('Exams per page')}
      sx={{ borderTop: 1, borderColor: 'divider', bgcolor: 'background.paper', flexShrink: 0 }}
    />
  );
}
