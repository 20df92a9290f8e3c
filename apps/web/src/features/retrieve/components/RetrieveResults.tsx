import { Checkbox, Table, TableBody, TableCell, TableHead, TableRow, Typography } from '@mui/material';
import { ScrollTable } from '../../../components/ScrollTable';
import type { DestinationSearchResult } from '@imaging-inbox/contract';
import { useDateDisplay } from '../../../lib/date-preferences';
import { formatModalities, formatPatientName } from '../../../lib/format';
import { useTranslation } from '../../../lib/i18n';
import { groupByPatient } from '../lib/retrieve-form';

interface Props {
  results: DestinationSearchResult[];
  selected: ReadonlySet<string>;
  onToggle: (exam: DestinationSearchResult) => void;
}

/** What the search found, one block per patient, each exam selectable for retrieve. */
export function RetrieveResults({ results, selected, onToggle }: Props) {
  const { t } = useTranslation();
  const dates = useDateDisplay();
  return (
    <ScrollTable label={t('Search results')}>
      {/* Headers, dates and accession numbers on one line ("Study date" broke in two at 1280 px);
          the description wraps instead. */}
      <Table
        size="small"
        stickyHeader
        aria-label={t('Search results')}
        sx={{ '& th, & td:nth-of-type(2), & td:nth-of-type(3)': { whiteSpace: 'nowrap' } }}
      >
        <TableHead>
          <TableRow>
            <TableCell padding="checkbox" />
            <TableCell>{t('Study date')}</TableCell>
            <TableCell>{t('Accession number')}</TableCell>
            <TableCell>{t('Description')}</TableCell>
            <TableCell>{t('Modality')}</TableCell>
          </TableRow>
        </TableHead>
        <TableBody>
          {groupByPatient(results).map((patient) => [
            <TableRow key={patient.key} sx={{ bgcolor: 'action.hover' }}>
              <TableCell colSpan={5}>
                <Typography variant="subtitle2" component="span">
                  {formatPatientName(patient.patient_name)}
                </Typography>
                <Typography variant="body2" component="span" color="text.secondary" sx={{ ml: 2 }}>
                  {t('MRN {{mrn}} · born {{dob}} · {{sex}}', {
                    mrn: patient.patientid || '—',
                    dob: dates.day(patient.patient_birth_date) || '—',
                    sex: patient.patient_sex || '—',
                  })}
                </Typography>
              </TableCell>
            </TableRow>,
            ...patient.exams.map((exam) => (
              <TableRow key={exam.study_uid} hover onClick={() => onToggle(exam)} sx={{ cursor: 'pointer' }}>
                <TableCell padding="checkbox">
                  <Checkbox
                    checked={selected.has(exam.study_uid)}
                    slotProps={{
                      input: {
                        'aria-label': t('Select {{description}}', {
                          description: exam.study_description || exam.study_uid,
                        }),
                      },
                    }}
                  />
                </TableCell>
                <TableCell>{dates.day(exam.study_date)}</TableCell>
                <TableCell>{exam.accession_number}</TableCell>
                <TableCell>{exam.study_description}</TableCell>
                <TableCell>{formatModalities(exam.modality)}</TableCell>
              </TableRow>
            )),
          ])}
        </TableBody>
      </Table>
    </ScrollTable>
  );
}
