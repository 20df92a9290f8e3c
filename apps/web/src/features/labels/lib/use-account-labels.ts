import { useEffect } from 'react';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';
import { setLabelOverrides } from '../../../lib/i18n';

/**
 * Applies the account's label overrides (label/list, the session's first account) to every text
 * of the session. A failed read leaves the built-in texts: the overrides are wording, not function.
 */
export function useAccountLabels(): void {
  const labels = useQuery({
    queryKey: ['labels', 'session'],
    queryFn: ({ signal }) => api.get('label/list', {}, { signal }),
    select: (answer) => answer.labels,
    staleTime: Infinity,
  });
  useEffect(() => {
    if (labels.data) setLabelOverrides(labels.data);
  }, [labels.data]);
}
