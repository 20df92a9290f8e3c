import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyRequest } from 'fastify';
import { isLoopback } from './client-address.js';

const digest = (text: string) => createHash('sha256').update(text).digest();

/**
 * /metrics tells route patterns, job queues and traffic, not data, but still nothing a stranger
 * should read: it answers a client on this machine (the client's address as TRUST_PROXY resolves
 * it, so a proxy on the same host does not make every client local), or one that sends
 * `Authorization: Bearer <METRICS_TOKEN>`. The token is compared in constant time.
 */
export function mayReadMetrics(request: FastifyRequest, token: string | undefined): boolean {
  if (isLoopback(request.ip)) return true;
  const header = request.headers.authorization;
  if (!token || !header?.startsWith('Bearer ')) return false;
  return timingSafeEqual(digest(header.slice(7).trim()), digest(token));
}
