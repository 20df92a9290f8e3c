/** One series of a study as the Downloads tab lists it. */
export interface SeriesItem {
  uid: string;
  description: string;
  modality: string;
  instances: number;
  number: number | null;
}

type DicomJsonAttribute = { vr?: string; Value?: unknown[] };
export type DicomJsonObject = Record<string, DicomJsonAttribute | undefined>;

function first(item: DicomJsonObject, tag: string): unknown {
  return item[tag]?.Value?.[0];
}

/**
 * Series from a QIDO-RS answer (DICOM JSON): 0020000E series UID, 0008103E description, 00080060
 * modality, 00201209 number of instances, 00200011 series number; sorted by series number.
 */
export function parseSeries(items: DicomJsonObject[]): SeriesItem[] {
  const series: SeriesItem[] = [];
  for (const item of items) {
    const uid = first(item, '0020000E');
    if (typeof uid !== 'string' || uid === '') continue;
    const description = first(item, '0008103E');
    const modality = first(item, '00080060');
    const count = Number(first(item, '00201209'));
    const number = Number(first(item, '00200011'));
    series.push({
      uid,
      description: typeof description === 'string' ? description : '',
      modality: typeof modality === 'string' ? modality : '',
      instances: Number.isFinite(count) ? count : 0,
      number: Number.isFinite(number) && first(item, '00200011') !== undefined ? number : null,
    });
  }
  return series.sort((a, b) => (a.number ?? Infinity) - (b.number ?? Infinity));
}

/**
 * The `series` parameter of a download: undefined (the whole study) when every series is chosen,
 * otherwise the chosen UIDs as JSON. Null when nothing is chosen (nothing to download).
 */
export function seriesParam(all: SeriesItem[], chosen: Set<string>): string | undefined | null {
  const picked = all.filter((s) => chosen.has(s.uid)).map((s) => s.uid);
  if (picked.length === 0) return null;
  if (picked.length === all.length) return undefined;
  return JSON.stringify(picked);
}
