import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, type Params } from '../../../lib/api-client';

/** The account's routing rules in sequence order (route/list). */
export const useRoutes = (accountId: string) =>
  useQuery({
    queryKey: ['routes', accountId],
    queryFn: ({ signal }) => api.get('route/list', { account_id: accountId }, { signal }),
    select: (answer) => answer.routes,
  });

const useInvalidating = <V>(key: string, call: (vars: V) => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: [key] }),
  });
};

export const useAddRoute = () => useInvalidating('routes', (params: Params) => api.call('route/add', params));
export const useSetRoute = () => useInvalidating('routes', (params: Params) => api.call('route/set', params));
export const useDeleteRoute = () =>
  useInvalidating('routes', (uuid: string) => api.call('route/delete', { uuid }));

/** The account's webhooks (webhook/list): admins only, so an error is expected for others. */
export const useWebhooks = (accountId: string, enabled = true) =>
  useQuery({
    queryKey: ['webhooks', accountId],
    enabled,
    queryFn: ({ signal }) => api.get('webhook/list', { account_id: accountId }, { signal }),
    select: (answer) => answer.webhooks,
  });

export const useAddWebhook = () =>
  useInvalidating('webhooks', (params: Params) => api.call('webhook/add', params));
export const useDeleteWebhook = () =>
  useInvalidating('webhooks', (uuid: string) => api.call('webhook/delete', { uuid }));

/** A webhook's latest deliveries, refreshed while the panel is open. */
export const useDeliveries = (uuid: string) =>
  useQuery({
    queryKey: ['webhook-deliveries', uuid],
    queryFn: ({ signal }) => api.get('webhook/delivery/list', { uuid, 'page.rows': 10 }, { signal }),
    select: (answer) => answer.deliveries,
    refetchInterval: 5000,
  });

/** What a rule's targets and actions may name: the account's senders, destinations and connections. */
export const useRouteTargets = (accountId: string, isAdmin: boolean) => {
  const nodes = useQuery({
    queryKey: ['dicom-nodes', accountId],
    enabled: isAdmin,
    queryFn: ({ signal }) => api.get('dicom/node/list', { account_id: accountId }, { signal }),
    select: (answer) => answer.nodes,
  });
  const destinations = useQuery({
    queryKey: ['destinations', accountId],
    enabled: isAdmin,
    queryFn: ({ signal }) => api.get('destination/list', { account_id: accountId }, { signal }),
    select: (answer) => answer.destinations.filter((d) => d.can_push === 1),
  });
  const connections = useQuery({
    queryKey: ['connections', accountId],
    queryFn: ({ signal }) => api.get('connection/list', { account_id: accountId }, { signal }),
    select: (answer) => answer.connections,
  });
  return {
    senders: nodes.data ?? [],
    destinations: destinations.data ?? [],
    connections: connections.data ?? [],
  };
};
