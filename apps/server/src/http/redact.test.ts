import { describe, expect, it } from 'vitest';
import { redactSid } from './app.js';

describe('redactSid', () => {
  it('hides session ids, link tokens and grants in logged URLs', () => {
    expect(redactSid('/api/v3/study/list?sid=abc&page.rows=5')).toBe(
      '/api/v3/study/list?sid=[redacted]&page.rows=5',
    );
    expect(redactSid('/api/v3/link/public/info?token=secret')).toBe(
      '/api/v3/link/public/info?token=[redacted]',
    );
    expect(redactSid('/api/v3/link/public/upload?grant=g1')).toBe(
      '/api/v3/link/public/upload?grant=[redacted]',
    );
    expect(redactSid('/link/abcdef?x=1')).toBe('/link/[redacted]?x=1');
    expect(redactSid('/send/abcdef')).toBe('/send/[redacted]');
    expect(redactSid('/group/list')).toBe('/group/list');
  });
});
