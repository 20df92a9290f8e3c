import { describe, expect, it } from 'vitest';
import { missingNodeFlags, SERVER_NODE_FLAGS } from '../../src/runtime-flags.js';

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
});
