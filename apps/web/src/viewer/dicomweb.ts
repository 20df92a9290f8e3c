import type { ParentCredential } from './credential';
import { firstPart } from './multipart';

type DicomJson = Record<string, { Value?: unknown[] } | undefined>;

export interface SeriesInfo {
  uid: string;
  number: number;
  description: string;
  modality: string;
  count: number;
}
export interface InstanceInfo {
  sopUid: string;
  number: number;
  frames: number;
}
export interface StudyInfo {
  patientName: string;
  patientId: string;
  birthDate: string;
  sex: string;
  description: string;
  date: string;
  accession: string;
}

/** Explicit VR Little Endian: the server decodes every stored syntax, so the viewer needs no codecs. */
const INSTANCE_ACCEPT = 'multipart/related; type="application/dicom"; transfer-syntax=1.2.840.10008.1.2.1';

const text = (item: DicomJson, tag: string): string => {
  const value = item[tag]?.Value?.[0];
  if (value && typeof value === 'object') {
    const alphabetic = (value as { Alphabetic?: unknown }).Alphabetic;
    return typeof alphabetic === 'string' ? alphabetic : '';
  }
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
};
const number = (item: DicomJson, tag: string, fallback = 0) => Number(text(item, tag)) || fallback;

/** Non-image series the viewer leaves out of its list. */
const NON_IMAGE = new Set(['SR', 'PR', 'KO', 'DOC', 'RTSTRUCT', 'RTPLAN', 'SEG', 'ECG']);

/** The few DICOMweb calls the viewer makes, each with the viewer token as a Bearer header. */
export class ViewerDicomweb {
  /** Instances fetched so far (the benchmark reports it against the study size). */
  instancesFetched = 0;

  constructor(
    private readonly studyUid: string,
    private readonly credential: ParentCredential,
    private readonly base = '/dicomweb',
  ) {}

  private async get(path: string, accept: string, signal?: AbortSignal): Promise<Response> {
    const send = async (token: string) =>
      fetch(`${this.base}${path}`, { headers: { authorization: `Bearer ${token}`, accept }, signal });
    let response = await send(await this.credential.get());
    if (response.status === 401) response = await send(await this.credential.refresh());
    if (!response.ok) throw new Error(`${path}: HTTP ${response.status}`);
    return response;
  }

  private async json(path: string): Promise<DicomJson[]> {
    return (await (await this.get(path, 'application/dicom+json')).json()) as DicomJson[];
  }

  private get studyPath() {
    return `/studies/${encodeURIComponent(this.studyUid)}`;
  }

  async study(): Promise<StudyInfo | undefined> {
    const [item] = await this.json(`/studies?StudyInstanceUID=${encodeURIComponent(this.studyUid)}`);
    if (!item) return undefined;
    return {
      patientName: text(item, '00100010').trim(),
      patientId: text(item, '00100020'),
      birthDate: text(item, '00100030'),
      sex: text(item, '00100040'),
      description: text(item, '00081030'),
      date: text(item, '00080020'),
      accession: text(item, '00080050'),
    };
  }

  async series(): Promise<SeriesInfo[]> {
    const rows = await this.json(`${this.studyPath}/series`);
    return rows
      .map((s) => ({
        uid: text(s, '0020000E'),
        number: number(s, '00200011'),
        description: text(s, '0008103E'),
        modality: text(s, '00080060'),
        count: number(s, '00201209'),
      }))
      .filter((s) => !NON_IMAGE.has(s.modality));
  }

  async instances(seriesUid: string): Promise<InstanceInfo[]> {
    const rows = await this.json(
      `${this.studyPath}/series/${encodeURIComponent(seriesUid)}/instances?limit=1000`,
    );
    return rows
      .map((i) => ({
        sopUid: text(i, '00080018'),
        number: number(i, '00200013'),
        frames: number(i, '00280008', 1),
      }))
      .sort((a, b) => a.number - b.number || a.sopUid.localeCompare(b.sopUid));
  }

  /** One instance as a Part-10 file in Explicit VR Little Endian. */
  async instance(seriesUid: string, sopUid: string, signal?: AbortSignal): Promise<ArrayBuffer> {
    const path = `${this.studyPath}/series/${encodeURIComponent(seriesUid)}/instances/${encodeURIComponent(sopUid)}`;
    const response = await this.get(path, INSTANCE_ACCEPT, signal);
    this.instancesFetched += 1;
    return firstPart(await response.arrayBuffer(), response.headers.get('content-type') ?? '');
  }

  /** The series thumbnail as an object URL (img tags cannot send the Authorization header). */
  async thumbnail(seriesUid: string): Promise<string> {
    const response = await this.get(
      `${this.studyPath}/series/${encodeURIComponent(seriesUid)}/thumbnail?viewport=96,96`,
      'image/png',
    );
    return URL.createObjectURL(await response.blob());
  }
}
