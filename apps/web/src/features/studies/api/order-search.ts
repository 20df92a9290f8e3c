import { useQuery } from '@tanstack/react-query';
import type { OrderAttributes } from '@imaging-inbox/contract';
import { apiGet } from '../../../lib/api-client';

/** The 'find orders of' choices (SPEC.md section 2, Search order) and the order/list filter of each. */
export const ORDER_FILTERS = {
  'Accession number': 'filter.accession_number.equals',
  'Patient name': 'filter.patient_name.like',
  MRN: 'filter.patientid.equals',
} as const;
export type OrderFilter = keyof typeof ORDER_FILTERS;

/** An order found for the exam: its attributes, and its uuid when it is one of the account's orders. */
export type FoundOrder = Partial<OrderAttributes> & { uuid?: string };

export interface OrderQuery {
  accountId: string;
  filter: OrderFilter;
  value: string;
}

/** order/list with one filter; a patient name is matched anywhere in the name (%value%). */
export const useOrderSearch = (query: OrderQuery | null) =>
  useQuery({
    queryKey: ['order', 'list', query],
    queryFn: ({ signal }) => {
      const q = query!;
      const value = q.filter === 'Patient name' ? `%${q.value}%` : q.value;
      return apiGet<{ orders: FoundOrder[] }>(
        'order/list',
        { account_id: q.accountId, [ORDER_FILTERS[q.filter]]: value },
        { signal },
      );
    },
    select: (answer) => answer.orders,
    enabled: query !== null,
  });
