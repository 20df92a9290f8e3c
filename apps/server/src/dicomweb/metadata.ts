import dcmjs from 'dcmjs';
import type { DenaturalizedDataset } from 'dcmjs';
import type { DicomJson, JsonAttribute } from './dicom-json.js';

dcmjs.log.setLevel('error');

const BINARY_VRS = new Set(['OB', 'OD', 'OF', 'OL', 'OV', 'OW', 'UN']);
/** Binary values up to this size are inlined as base64; larger ones are left to bulk data. */
const INLINE_LIMIT = 4096;
const PIXEL_DATA = '7FE00010';

/**
 * The full header of one instance in the DICOM JSON model (WADO-RS metadata): pixel data and large
 * binary values become BulkDataURI references, small binary values are inlined.
 */
export function instanceMetadata(file: Buffer, instanceUrl: string): DicomJson {
  const arrayBuffer = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength) as ArrayBuffer;
  const message = dcmjs.data.DicomMessage.readFile(arrayBuffer, {
    untilTag: PIXEL_DATA,
    includeUntilTagValue: false,
  });
  const json = toJson(message.dict, instanceUrl);
  json[PIXEL_DATA] = { vr: 'OW', BulkDataURI: `${instanceUrl}/frames/1` };
  return json;
}

function toJson(dataset: DenaturalizedDataset, instanceUrl: string): DicomJson {
  const out: DicomJson = {};
  for (const [tag, element] of Object.entries(dataset)) {
    if (tag === PIXEL_DATA || !element.vr) continue;
    out[tag.toUpperCase()] = attribute(tag, element.vr, element.Value, instanceUrl);
  }
  return out;
}

function attribute(
  tag: string,
  vr: string,
  value: unknown[] | undefined,
  instanceUrl: string,
): JsonAttribute {
  if (!value || value.length === 0) return { vr };
  if (vr === 'SQ') {
    return { vr, Value: value.map((item) => toJson(item as DenaturalizedDataset, instanceUrl)) };
  }
  if (BINARY_VRS.has(vr)) {
    const bytes = value
      .filter((v): v is ArrayBuffer => v instanceof ArrayBuffer)
      .reduce((n, b) => n + b.byteLength, 0);
    if (bytes > INLINE_LIMIT) return { vr, BulkDataURI: `${instanceUrl}/bulk/${tag.toUpperCase()}` };
    const buffers = value
      .filter((v): v is ArrayBuffer => v instanceof ArrayBuffer)
      .map((b) => Buffer.from(b));
    return { vr, InlineBinary: Buffer.concat(buffers).toString('base64') };
  }
  return { vr, Value: value };
}
