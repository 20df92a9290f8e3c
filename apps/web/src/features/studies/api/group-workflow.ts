import { queryOptions, useQuery } from '@tanstack/react-query';
import type { GroupSummary, GroupWorkflowConfig } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

export type GroupWithWorkflow = Omit<GroupSummary, 'type'> & GroupWorkflowConfig;

/**
 * A group with its gatekeeper-workflow configuration (group/get): a cloud group's gatekeepers and
 * their nomination forms, or a gatekeeper group's promote preference and destinations.
 */
export const groupWorkflowQuery = (groupUuid: string) =>
  queryOptions({
    queryKey: ['group', 'get', groupUuid],
    queryFn: ({ signal }) => api.get('group/get', { uuid: groupUuid }, { signal }),
    staleTime: 60 * 1000,
  });

export const useGroupWorkflow = (groupUuid: string | undefined) =>
  useQuery({ ...groupWorkflowQuery(groupUuid ?? ''), enabled: !!groupUuid });
