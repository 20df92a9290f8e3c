/**
 * Real non-DICOM files for the wrapping tests, made by code: a one-page PDF with a correct
 * cross-reference table, JPEGs from the server's own libjpeg-turbo encoder and from dcmtk, PNGs from
 * the PNG encoders.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { encode as encodePngAny } from 'fast-png';
import { buildInstance, newUid } from '../../src/dicom/index.js';
import { encodeJpeg } from '../../src/imaging/codecs.js';
import { encodePng } from '../../src/imaging/png.js';

/** A valid single-page PDF showing `text` (offsets in the xref table are computed, not guessed). */
export function minimalPdf(text: string): Uint8Array {
  const stream = `BT /F1 24 Tf 72 720 Td (${text.replace(/[()\\]/g, '')}) Tj ET`;
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${stream.length} >>\nstream\n${stream}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(body.length);
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = body.length;
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  for (const offset of offsets) body += `${String(offset).padStart(10, '0')} 00000 n \n`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return new TextEncoder().encode(body);
}

/** A colour test pattern, `width`×`height` interleaved RGB. */
export function rgbPattern(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 3);
  for (let y = 0; y < height; y++) {
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 3;
      data[i] = (x * 255) / Math.max(1, width - 1);
      data[i + 1] = (y * 255) / Math.max(1, height - 1);
      data[i + 2] = ((x + y) * 7) % 256;
    }
  }
  return data;
}

/** An RGB PNG of the pattern (the server's encoder: 8-bit, no alpha). */
export function rgbPng(width: number, height: number): Uint8Array {
  return encodePng({ width, height, channels: 3, data: rgbPattern(width, height) });
}

/** A grey + alpha PNG: half transparent left half, to check compositing over white. */
export function greyAlphaPng(width: number, height: number): Uint8Array {
  const data = new Uint8Array(width * height * 2);
  for (let i = 0; i < width * height; i++) {
    data[i * 2] = 0;
    data[i * 2 + 1] = i % width < width / 2 ? 0 : 255;
  }
  return encodePngAny({ width, height, data, channels: 2, depth: 8 });
}

/** A 4:4:4 colour JPEG (libjpeg-turbo via dcmjs-codecs): the wrapper decodes these. */
export function unsubsampledJpeg(width: number, height: number): Promise<Buffer> {
  return encodeJpeg(rgbPattern(width, height), width, height, 3);
}

/** A greyscale baseline JPEG: kept as it is, MONOCHROME2. */
export function greyJpeg(width: number, height: number): Promise<Buffer> {
  const grey = new Uint8Array(width * height).map((_, i) => (i * 3) % 256);
  return encodeJpeg(grey, width, height, 1);
}

/** A 4:2:2 colour JPEG as cameras write them, made by dcmtk's dcmj2pnm from a VL photograph. */
export function subsampledJpeg(): Uint8Array {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-jpeg-'));
  try {
    const dcm = path.join(dir, 'photo.dcm');
    const uid = newUid();
    fs.writeFileSync(
      dcm,
      buildInstance({
        patientName: 'PHOTO^TEST',
        patientId: 'P1',
        patientSex: 'O',
        patientBirthDate: '19700101',
        studyInstanceUid: uid,
        studyDate: '20260101',
        studyTime: '120000',
        studyDescription: '',
        accessionNumber: '',
        referringPhysician: '',
        institutionName: '',
        seriesInstanceUid: `${uid}.1`,
        seriesNumber: 1,
        seriesDescription: '',
        modality: 'XC',
        bodyPart: '',
        sopInstanceUid: `${uid}.1.1`,
        instanceNumber: 1,
        rows: 48,
        columns: 64,
      }),
    );
    const jpg = path.join(dir, 'photo.jpg');
    execFileSync('dcmj2pnm', ['+oj', dcm, jpg]);
    return new Uint8Array(fs.readFileSync(jpg));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A file sent to a wrap route: its name, bytes and, optionally, the type the browser would give. */
export interface Upload {
  name: string;
  bytes: Uint8Array;
  type?: string;
}

/** The multipart body of a wrap call: the patient and exam form fields, then each file as `file`. */
export function wrapBody(form: Record<string, string>, files: Upload[]): FormData {
  const body = new FormData();
  for (const [k, v] of Object.entries(form)) body.set(k, v);
  for (const f of files) body.append('file', new Blob([f.bytes], { type: f.type ?? '' }), f.name);
  return body;
}
