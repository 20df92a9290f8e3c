import './zod-jitless';
import { describe, expect, it } from 'vitest';
import { config, z } from 'zod';

describe('zod without compiled parsers', () => {
  it('is told before it loads, and parses as usual', () => {
    expect(config().jitless).toBe(true);
    const schema = z.object({ sid: z.string(), n: z.number().int() });
    expect(schema.parse({ sid: 'S1', n: 2 })).toEqual({ sid: 'S1', n: 2 });
    expect(schema.safeParse({ sid: 1 }).success).toBe(false);
  });
});
