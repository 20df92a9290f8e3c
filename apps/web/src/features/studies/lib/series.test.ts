import { describe, expect, it } from 'vitest';
import { parseSeries, seriesParam } from './series';

const qido = [
  {
    '0020000E': { vr: 'UI', Value: ['1.2.2'] },
    '0008103E': { vr: 'LO', Value: ['AX T2'] },
    '00080060': { vr: 'CS', Value: ['MR'] },
    '00201209': { vr: 'IS', Value: [12] },
    '00200011': { vr: 'IS', Value: [2] },
  },
  {
    '0020000E': { vr: 'UI', Value: ['1.2.1'] },
    '00080060': { vr: 'CS', Value: ['MR'] },
    '00201209': { vr: 'IS', Value: [3] },
    '00200011': { vr: 'IS', Value: [1] },
  },
  { '0008103E': { vr: 'LO', Value: ['no uid'] } },
];

describe('series', () => {
  it('reads DICOM JSON series in series-number order', () => {
    expect(parseSeries(qido)).toEqual([
      { uid: '1.2.1', description: '', modality: 'MR', instances: 3, number: 1 },
      { uid: '1.2.2', description: 'AX T2', modality: 'MR', instances: 12, number: 2 },
    ]);
  });
  it('sends no series for all, a JSON list for some, null for none', () => {
    const all = parseSeries(qido);
    expect(seriesParam(all, new Set(['1.2.1', '1.2.2']))).toBeUndefined();
    expect(seriesParam(all, new Set(['1.2.2']))).toBe('["1.2.2"]');
    expect(seriesParam(all, new Set())).toBeNull();
  });
});
