import { api } from '../../../lib/api-client';

export const getSessionTtl = () => api.get('session/ttl');
