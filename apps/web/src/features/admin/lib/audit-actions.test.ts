import { AUDIT_ACTIONS } from '@imaging-inbox/contract';
import { describe, expect, it } from 'vitest';
import fr from '../../../locales/fr';
import es from '../../../locales/es';
import { ACTION_LABELS, actionLabel } from './audit-entry';

/**
 * The Audit Log page names every action the server records in words, in each language. The server's
 * audit events are typed by the contract's list, so an action the server gains is added there first;
 * here each listed action must have a label, translated, or it would show as raw words.
 */
describe('audit action names', () => {
  it('has a label for every action the server records, and none for an action it does not', () => {
    expect(AUDIT_ACTIONS.filter((action) => !ACTION_LABELS[action])).toEqual([]);
    const listed = new Set<string>(AUDIT_ACTIONS);
    expect(Object.keys(ACTION_LABELS).filter((action) => !listed.has(action))).toEqual([]);
  });

  it('gives each action its own label', () => {
    const labels = Object.values(ACTION_LABELS);
    expect(labels.filter((label, i) => labels.indexOf(label) !== i)).toEqual([]);
  });

  it('has each label in French and Spanish', () => {
    const labels = Object.values(ACTION_LABELS);
    expect(labels.filter((label) => !fr[label])).toEqual([]);
    expect(labels.filter((label) => !es[label])).toEqual([]);
  });

  it('reads an action it has no label for as words', () => {
    expect(actionLabel('SOME_NEW_THING')).toBe('Some new thing');
  });
});
