import { describe, expect, it } from 'vitest';
import { StudyEvents } from './study-events.js';

describe('study events', () => {
  it('tells each listener in the order it was added, skipping what a listener does not hear', async () => {
    const events = new StudyEvents();
    const heard: string[] = [];
    events.listen({
      shared: (copy) => {
        heard.push(`first shared ${copy}`);
        return Promise.resolve();
      },
    });
    events.listen({
      shared: (copy) => {
        heard.push(`second shared ${copy}`);
        return Promise.resolve();
      },
      happened: (event, study) => {
        heard.push(`second ${event} ${study}`);
        return Promise.resolve();
      },
    });
    await events.shared('c1');
    await events.happened('study_nominated', 's1', {});
    expect(heard).toEqual(['first shared c1', 'second shared c1', 'second study_nominated s1']);
  });
});
