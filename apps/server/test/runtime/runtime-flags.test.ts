import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { missingNodeFlags, SERVER_NODE_FLAGS } from '../../src/runtime-flags.js';
import { SERVER_MAIN, startChildServer } from '../support/child-server.js';

describe('the flags for node the server runs with', () => {
  it('names each flag that a start left out, and none when all are there', () => {
    expect(SERVER_NODE_FLAGS.length).toBeGreaterThan(0);
    expect(missingNodeFlags([])).toEqual([...SERVER_NODE_FLAGS]);
    expect(missingNodeFlags(['--inspect', ...SERVER_NODE_FLAGS])).toEqual([]);
    expect(missingNodeFlags(SERVER_NODE_FLAGS.slice(1))).toEqual(SERVER_NODE_FLAGS.slice(0, 1));
  });

  it('are flags this node accepts, so a start with them does not fail', async () => {
    const { execFileSync } = await import('node:child_process');
    const out = execFileSync(process.execPath, [...SERVER_NODE_FLAGS, '-e', 'console.log("started")'], {
      encoding: 'utf8',
    });
    expect(out.trim()).toBe('started');
  });

  it('a server started without them still serves, and says which it lacks', async () => {
    expect(fs.existsSync(SERVER_MAIN), 'run npm run build first').toBe(true);
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'runtime-flags-test-'));
    // node with the server's main alone, as a start that bypasses scripts/serve.sh would run it.
    const server = await startChildServer(dataDir, { SEED_DEMO: '0' }, [SERVER_MAIN]);
    try {
      await expect
        .poll(() => server.output(), { timeout: 5_000 })
        .toContain(`Started without ${SERVER_NODE_FLAGS.join(' ')}`);
    } finally {
      await server.kill();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
