import type { TtlAnswer } from '@imaging-inbox/contract';
import { apiGet } from '../../../lib/api-client';

export const getSessionTtl = () => apiGet<TtlAnswer>('session/ttl');
