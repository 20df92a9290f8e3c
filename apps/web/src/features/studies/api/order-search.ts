import { useQuery } from '@tanstack/react-query';
import type { Order, OrderAttributes, OrderQuery } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/** An order to compare the exam with: a stored or worklist order, or a patient's exam found by C-FIND. */
export type FoundOrder = Partial<OrderAttributes> & Partial<Pick<Order, 'uuid' | 'source'>>;

const FILTER_PARAM = {
  accession_number: 'filter.accession_number.equals',
  patient_name: 'filter.patient_name.like',
  patientid: 'filter.patientid.equals',
} as const;

/**
 * order/search for a gatekeeper group: the account's orders and its worklist destination's, by one
 * filter; a patient name is matched anywhere in the name (%value%).
 */
export const useOrderSearch = (groupUuid: string, query: OrderQuery | null) =>
  useQuery({
    queryKey: ['order', 'search', groupUuid, query],
    queryFn: ({ signal }) => {
      const q = query!;
      const value = q.filter === 'patient_name' ? `%${q.value}%` : q.value;
      return api.get('order/search', { group_id: groupUuid, [FILTER_PARAM[q.filter]]: value }, { signal });
    },
    enabled: query !== null,
  });
