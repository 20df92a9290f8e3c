import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('JOB_CONCURRENCY', () => {
  it('gives each named kind its slots and leaves the others at their default', () => {
    expect(loadConfig({}).jobConcurrency).toEqual({});
    expect(loadConfig({ JOB_CONCURRENCY: 'study.send=2, mail.deliver=3' }).jobConcurrency).toEqual({
      'study.send': 2,
      'mail.deliver': 3,
    });
  });

  it.each(['study.send', 'study.send=0', 'study.send=2,', 'study.send=x', 'a=1;b=2'])(
    'refuses %j',
    (value) => {
      expect(() => loadConfig({ JOB_CONCURRENCY: value })).toThrow(ConfigError);
    },
  );
});
