import { describe, expect, it } from 'vitest';
import { StudyExtrasRegistry, withContributedFields } from './study-extras.js';

describe('study extras registry', () => {
  it('merges what each contributor adds to a study, in registration order', async () => {
    const registry = new StudyExtrasRegistry();
    registry.register('pushes', {
      of: (uuids) =>
        Promise.resolve(
          new Map(
            uuids.map((u) => [
              u,
              { pushStatus: [{ status: 'S', updated: 'then', destination_name: 'PACS' }] },
            ]),
          ),
        ),
    });
    registry.register('nominations', {
      of: () => Promise.resolve(new Map([['a', { customFields: [{ name: 'nominated_at', value: 'now' }] }]])),
    });
    const extras = await registry.of(['a', 'b']);
    expect(extras.get('a')).toEqual({
      pushStatus: [{ status: 'S', updated: 'then', destination_name: 'PACS' }],
      customFields: [{ name: 'nominated_at', value: 'now' }],
    });
    expect(extras.get('b')?.customFields).toBeUndefined();
  });

  it('asks no contributor about an empty page', async () => {
    const registry = new StudyExtrasRegistry();
    let asked = false;
    registry.register('x', {
      of: () => {
        asked = true;
        return Promise.resolve(new Map());
      },
    });
    expect((await registry.of([])).size).toBe(0);
    expect(asked).toBe(false);
  });

  it('refuses a contributor registered twice under one name', () => {
    const registry = new StudyExtrasRegistry();
    registry.register('x', { of: () => Promise.resolve(new Map()) });
    expect(() => registry.register('x', { of: () => Promise.resolve(new Map()) })).toThrow(/twice/);
  });

  it('lets a stored custom field hide a contributed one of the same name', () => {
    const stored = [
      { name: 'nominated_at', value: 'stored' },
      { uuid: 'f1', name: 'nomination_push_status', value: 'a defined field' },
    ];
    const contributed = [
      { name: 'nominated_at', value: 'computed' },
      { name: 'nomination_push_status', value: 'S' },
    ];
    expect(withContributedFields(stored, contributed)).toEqual([...stored, contributed[1]]);
  });
});
