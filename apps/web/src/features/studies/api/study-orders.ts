import { useQuery } from '@tanstack/react-query';
import type { Order, Study } from '@imaging-inbox/contract';
import { api } from '../../../lib/api-client';

/**
 * The account's orders for an exam (order/list, order_view): those with its accession number and
 * those of its MRN, once each. order/list takes one filter per call, so it is asked once per key.
 */
export const useStudyOrders = (accountId: string, study: Study) =>
  useQuery({
    queryKey: ['order', 'list', accountId, study.accession_number, study.patientid],
    queryFn: async ({ signal }) => {
      const filters: Record<string, string>[] = [];
      if (study.accession_number) filters.push({ 'filter.accession_number.equals': study.accession_number });
      if (study.patientid) filters.push({ 'filter.patientid.equals': study.patientid });
      const answers = await Promise.all(
        filters.map((filter) => api.get('order/list', { account_id: accountId, ...filter }, { signal })),
      );
      const byUuid = new Map<string, Order>();
      for (const order of answers.flatMap((a) => a.orders)) byUuid.set(order.uuid, order);
      return [...byUuid.values()];
    },
  });
