import { API_CALLS } from '@imaging-inbox/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registeredRoutes } from '../../src/http/app.js';
import type { TestServer } from '../support/test-server.js';
import { DIALECTS, startTestServer } from '../support/test-server.js';

/**
 * The contract's map of api/v3 calls (`API_CALLS`) is the list the web's client is typed by and the
 * server's route helpers accept: it must name exactly the api/v3 routes the server registers, with
 * their methods, so a call the web makes exists and a route the server adds is in the contract.
 */
describe.each(DIALECTS)('the api/v3 call map on %s', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startTestServer(dialect);
  }, 120_000);
  afterAll(() => server?.stop());

  const PREFIX = '/api/v3/';
  const registered = () =>
    registeredRoutes(server.http)
      .filter((r) => r.url.startsWith(PREFIX))
      .map((r) => `${[...r.methods].sort().join(',')} ${r.url.slice(PREFIX.length)}`);
  const mapped = () =>
    Object.entries(API_CALLS).map(([path, spec]) => `${[...spec.methods].sort().join(',')} ${path}`);

  it('names every registered api/v3 route with its methods', () => {
    const inMap = new Set(mapped());
    expect(
      registered().filter((route) => !inMap.has(route)),
      'routes the server registers that packages/contract API_CALLS does not name (add them there)',
    ).toEqual([]);
  });

  it('names no route the server does not register', () => {
    const onServer = new Set(registered());
    expect(
      mapped().filter((route) => !onServer.has(route)),
      'API_CALLS entries of routes the server does not register',
    ).toEqual([]);
  });

  it('gives every call a request schema unless it reads a body or path parameters', () => {
    const withoutSchema = Object.entries(API_CALLS)
      .filter(([, spec]) => spec.request === null)
      .map(([path]) => path);
    for (const path of withoutSchema)
      expect(
        path === 'health' ||
          path === 'bundle' ||
          path.startsWith('storage/') ||
          path.startsWith('link/public/'),
        `${path} has no request schema`,
      ).toBe(true);
  });
});
