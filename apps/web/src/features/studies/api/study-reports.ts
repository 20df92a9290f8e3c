import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

const reportsKey = (studyUuid: string) => ['study', 'report', 'list', studyUuid] as const;

/** The study's reports, newest first (study/report/list). */
export const useStudyReports = (studyUuid: string) =>
  useQuery({
    queryKey: reportsKey(studyUuid),
    queryFn: ({ signal }) => api.get('study/report/list', { uuid: studyUuid }, { signal }),
    select: (answer) => answer.reports,
  });

export interface NewReport {
  title: string;
  final: boolean;
  /** A text report, or a PDF file. */
  text?: string;
  pdf?: File;
}

/** study/report/add: a text report as a field, a PDF as the multipart file `file`. */
export const useAddReport = (studyUuid: string) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (report: NewReport) => {
      const params = { uuid: studyUuid, title: report.title || undefined, final: report.final ? '1' : '0' };
      return report.pdf
        ? api.multipart('study/report/add', params, {
            name: 'file',
            blob: report.pdf,
          })
        : api.call('study/report/add', { ...params, text: report.text });
    },
    // The report is a new series: the exam's counts and its history change with the list.
    onSuccess: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: reportsKey(studyUuid) }),
        queryClient.invalidateQueries({ queryKey: ['study', 'list'] }),
        queryClient.invalidateQueries({ queryKey: ['audit', 'object', studyUuid] }),
      ]),
  });
};
