import { useState } from 'react';
import { useParams } from 'react-router';
import {
  Alert,
  Box,
  Button,
  Stack,
  Table,
  TableBody,
  TableCell,
  TableRow,
  TextField,
  Typography,
} from '@mui/material';
import { MESSAGES, SEND_CODE_LENGTH } from '@imaging-inbox/contract';
import { currentLanguage, useTranslation } from '../../../lib/i18n';
import { formatDicomDate, formatModalities, formatPatientName } from '../../../lib/format';
import { CenteredCard } from '../../../components/CenteredCard';
import { Loading } from '../../../components/Loading';
import { linkErrorCode } from '../../link';
import {
  sendLinkDownloadUrl,
  useRequestSendCode,
  useSendLinkInfo,
  useSendLinkStudy,
  useVerifySendCode,
} from '../api/send-public';
import { sendLinkErrorMessage } from '../lib/send-link-messages';

/** The exam summary and its download, once the address is verified. */
function SentStudy({ grant }: { grant: string }) {
  const { t } = useTranslation();
  const study = useSendLinkStudy(grant);
  if (study.isPending) return <Loading />;
  if (study.isError)
    return <Alert severity="error">{t(sendLinkErrorMessage(linkErrorCode(study.error)))}</Alert>;
  const s = study.data.study;
  const rows: [string, string][] = [
    ['Patient name', formatPatientName(s.patient_name)],
    ['MRN', s.patientid],
    ['Date of birth', formatDicomDate(s.patient_birth_date)],
    ['Sex', s.patient_sex],
    ['Study date', formatDicomDate(s.study_date)],
    ['Description', s.study_description],
    ['Accession number', s.accession_number],
    ['Modality', formatModalities(s.modality)],
    ['Images', t('{{count}} images in {{series}} series', { count: s.image_count, series: s.series_count })],
  ];
  return (
    <Stack spacing={2}>
      <Table size="small" aria-label={t('Exam summary')}>
        <TableBody>
          {rows.map(([label, value]) => (
            <TableRow key={label}>
              <TableCell component="th" scope="row">
                {t(label)}
              </TableCell>
              <TableCell>{value}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
      <Box>
        <Button variant="contained" href={sendLinkDownloadUrl(grant)} download>
          {t('Download exam (ZIP)')}
        </Button>
      </Box>
      <Typography variant="body2" color="text.secondary">
        {t('This link works until {{date}}.', {
          date: new Date(study.data.expires).toLocaleString(currentLanguage()),
        })}
      </Typography>
    </Stack>
  );
}

/**
 * `/send/{token}`: the page an e-mailed exam link opens, without an account. The recipient asks
 * for a one-time code mailed to the address the exam was sent to, enters it, and then sees the
 * summary and downloads the exam.
 */
export function SendLinkPage() {
  const { t } = useTranslation();
  const { token = '' } = useParams();
  const info = useSendLinkInfo(token);
  const requestCode = useRequestSendCode();
  const verify = useVerifySendCode();
  const [code, setCode] = useState('');
  const [grant, setGrant] = useState<string | null>(null);

  if (info.isPending) return <Loading />;
  if (info.isError) {
    return (
      <CenteredCard title={t('Exam sent to you')}>
        <Alert severity="error">{t(sendLinkErrorMessage(linkErrorCode(info.error)))}</Alert>
      </CenteredCard>
    );
  }
  const link = info.data;
  const submitCode = () =>
    verify.mutate({ token, code: code.trim() }, { onSuccess: (answer) => setGrant(answer.grant) });

  return (
    <CenteredCard title={t('Exam sent to you')}>
      <Stack spacing={2}>
        <Typography>
          {t('{{name}} ({{organization}}) sent you an imaging exam.', {
            name: link.sender_name,
            organization: link.organization,
          })}
        </Typography>
        {link.message && (
          <Typography color="text.secondary" sx={{ whiteSpace: 'pre-wrap' }}>
            {link.message}
          </Typography>
        )}
        {grant ? (
          <SentStudy grant={grant} />
        ) : (
          <>
            <Typography>
              {t('To open it, confirm that you read the mailbox {{email}}.', { email: link.email_hint })}
            </Typography>
            {requestCode.isSuccess ? (
              <Alert severity="info">{t(MESSAGES.sendCodeSent)}</Alert>
            ) : (
              <Box>
                <Button
                  variant="contained"
                  disabled={requestCode.isPending}
                  onClick={() => requestCode.mutate(token)}
                >
                  {t('E-mail me a code')}
                </Button>
              </Box>
            )}
            {requestCode.isError && (
              <Alert severity="error">{t(sendLinkErrorMessage(linkErrorCode(requestCode.error)))}</Alert>
            )}
            <Box
              component="form"
              sx={{ display: 'flex', gap: 1, alignItems: 'flex-start' }}
              onSubmit={(e) => {
                e.preventDefault();
                submitCode();
              }}
            >
              <TextField
                label={t('Code')}
                value={code}
                onChange={(e) => setCode(e.target.value.replace(/\D/g, '').slice(0, SEND_CODE_LENGTH))}
                slotProps={{ htmlInput: { inputMode: 'numeric', autoComplete: 'one-time-code' } }}
                error={verify.isError}
                helperText={verify.isError ? t(sendLinkErrorMessage(linkErrorCode(verify.error))) : undefined}
                sx={{ flex: 1 }}
              />
              <Button
                type="submit"
                variant="outlined"
                disabled={code.length !== SEND_CODE_LENGTH || verify.isPending}
              >
                {t('Verify')}
              </Button>
            </Box>
          </>
        )}
      </Stack>
    </CenteredCard>
  );
}
