import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { MAX_PAGE_ROWS } from '@imaging-inbox/contract';
import { api, type Params } from '../../../lib/api-client';

/** A group's gatekeeper-workflow configuration, as group/get answers it. */
export const useGroupWorkflow = (groupId: string) =>
  useQuery({
    queryKey: ['admin-groups', 'workflow', groupId],
    queryFn: ({ signal }) => api.get('group/get', { uuid: groupId }, { signal }),
  });

/** group/config/set: the group's whole configuration. */
export const useSetGroupConfig = () => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (v: { groupId: string; config: unknown }) =>
      api.call('group/config/set', { uuid: v.groupId, config: JSON.stringify(v.config) }),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin-groups', 'workflow'] }),
  });
};

/** The account's registered DICOM senders (dicom/node/list). */
export const useDicomNodes = (accountId: string) =>
  useQuery({
    queryKey: ['dicom-nodes', accountId],
    queryFn: ({ signal }) =>
      api.get('dicom/node/list', { account_id: accountId, 'page.rows': MAX_PAGE_ROWS }, { signal }),
    select: (answer) => answer.nodes,
  });

const useNodesMutation = <V>(call: (vars: V) => Promise<unknown>) => {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['dicom-nodes'] }),
  });
};

export const useAddDicomNode = () => useNodesMutation((params: Params) => api.call('dicom/node/add', params));
/** dicom/node/set: what a node may query and retrieve as a DICOM peer, and its port (decision 0061). */
export const useSetDicomNode = () => useNodesMutation((params: Params) => api.call('dicom/node/set', params));
export const useDeleteDicomNode = () =>
  useNodesMutation((uuid: string) => api.call('dicom/node/delete', { uuid }));
