import { useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api-client';

/** namespace/share_code of the destination: whether its account allows the non-DICOM upload. */
export function useWrappingEnabled(namespaceId: string | null): boolean | null {
  const settings = useQuery({
    queryKey: ['namespace', 'share_code', namespaceId],
    queryFn: ({ signal }) => api.get('namespace/share_code', { namespace_id: namespaceId }, { signal }),
    enabled: namespaceId !== null,
  });
  if (namespaceId === null || settings.isError) return namespaceId === null ? null : false;
  // Asked by namespace_id, the answer carries the settings (a share_code lookup answers none).
  if (!settings.data) return null;
  return 'settings' in settings.data && settings.data.settings.enable_dicom_wrapping === '1';
}
