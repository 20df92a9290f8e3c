/**
 * Wraps an H.264 MP4 file as Video Photographic Image Storage (PS3.3 A.32.7) with an MPEG-4
 * AVC/H.264 transfer syntax (PS3.5 8.2.7 and 8.2.8). docs/architecture.md "Video wrapping" says why:
 *
 * - The MP4 file goes into Pixel Data unchanged: PS3.5 8.2.7/8.2.8 allow the MPEG-4 (MP4) container
 *   as well as an MPEG-2 transport stream around the H.264 stream, and keeping the container keeps
 *   the timing, any sound track, and lets a browser play the stored bytes as they are.
 * - Encapsulated format (PS3.5 A.4): an empty Basic Offset Table item, then the whole file in one
 *   fragment (the non-fragmentable syntaxes want one; our size limit keeps it far below 4 GiB), then
 *   the sequence delimiter.
 * - The file is never held in memory: the DICOM header is written by dcmjs (a few kB) and the MP4
 *   bytes are streamed from the upload's temp file behind it.
 */
import fs from 'node:fs';
import { Readable } from 'node:stream';
import type { NaturalizedDataset } from 'dcmjs';
import type { AvcConfig, Mp4VideoInfo } from './mp4-info.js';
import { ENCAPSULATED_PIXEL_DATA_HEADER, itemHeader, sequenceDelimiter } from './encapsulated.js';
import { Mp4Problem } from './mp4-info.js';
import { commonAttributes, type WrapInstance, type WrapStudy, writePart10 } from './wrap.js';

export const VIDEO_PHOTOGRAPHIC_STORAGE = '1.2.840.10008.5.1.4.1.1.77.1.4.1';

/** MPEG-4 AVC/H.264 High Profile / Level 4.1 (PS3.5 A.4.5 / 8.2.7). */
export const MPEG4_HP41 = '1.2.840.10008.1.2.4.102';
/** MPEG-4 AVC/H.264 BD-compatible High Profile / Level 4.1. */
export const MPEG4_HP41_BD = '1.2.840.10008.1.2.4.103';
/** MPEG-4 AVC/H.264 High Profile / Level 4.2 For 2D Video (PS3.5 8.2.8). */
export const MPEG4_HP42_2D = '1.2.840.10008.1.2.4.104';
/** … For 3D Video, and Stereo High Profile / Level 4.2: not written here (stereo needs more than MP4 tells). */
export const MPEG4_HP42_3D = '1.2.840.10008.1.2.4.105';
export const MPEG4_SHP42 = '1.2.840.10008.1.2.4.106';
/** HEVC/H.265 Main and Main 10 Profile / Level 5.1. */
export const HEVC_MP51 = '1.2.840.10008.1.2.4.107';
export const HEVC_M10P51 = '1.2.840.10008.1.2.4.108';

/** Transfer syntaxes whose Pixel Data holds a video stream (MPEG-2, MPEG-4 AVC, HEVC; plus fragmentable forms). */
export const VIDEO_TRANSFER_SYNTAXES: ReadonlySet<string> = new Set([
  '1.2.840.10008.1.2.4.100',
  '1.2.840.10008.1.2.4.100.1',
  '1.2.840.10008.1.2.4.101',
  '1.2.840.10008.1.2.4.101.1',
  MPEG4_HP41,
  `${MPEG4_HP41}.1`,
  MPEG4_HP41_BD,
  `${MPEG4_HP41_BD}.1`,
  MPEG4_HP42_2D,
  `${MPEG4_HP42_2D}.1`,
  MPEG4_HP42_3D,
  `${MPEG4_HP42_3D}.1`,
  MPEG4_SHP42,
  `${MPEG4_SHP42}.1`,
  HEVC_MP51,
  HEVC_M10P51,
]);

/** Frame Time (0018,1063): what the Multi-frame module's Frame Increment Pointer points at. */
const FRAME_TIME_TAG = 0x00181063;

/** profile_idc values of H.264 (ITU-T H.264 Annex A). */
const BASELINE = 66;
const MAIN = 77;
const HIGH = 100;

/**
 * The transfer syntax for an H.264 stream, or a refusal naming what does not fit.
 *
 * The syntaxes name a decoder capability, High Profile at level 4.1 or 4.2: a stream a decoder of
 * that capability decodes qualifies. High Profile is 8-bit 4:2:0, and Main and Constrained Baseline
 * streams are subsets of it; Baseline without constraint_set1 (FMO/ASO), High 10, 4:2:2, 4:4:4 and
 * the scalable/multiview profiles are not. Levels up to 4.1 (1b included) take .102; level 4.2 takes
 * .104 (2D). .103 (BD-compatible) is a subset of .102 for Blu-ray frame sizes and rates, so .102 is
 * never wrong for those streams either; stereo (.105/.106) needs frame-packing information MP4 does
 * not give us, so a Stereo High stream is refused.
 */
export function avcTransferSyntax(avc: AvcConfig): string {
  const profile = avc.profileIdc;
  const constrainedBaseline = profile === BASELINE && (avc.constraintFlags & 0x40) !== 0;
  if (profile !== HIGH && profile !== MAIN && !constrainedBaseline) {
    throw new Mp4Problem(
      'UNSUPPORTED_VIDEO_CODEC',
      `H.264 ${profileName(profile)} is not storable in DICOM; re-encode as H.264 High Profile (8-bit 4:2:0)`,
    );
  }
  if (avc.levelIdc <= 41) return MPEG4_HP41;
  if (avc.levelIdc === 42) return MPEG4_HP42_2D;
  throw new Mp4Problem(
    'UNSUPPORTED_VIDEO_CODEC',
    `H.264 level ${avc.levelIdc / 10} is above 4.2, the highest DICOM defines; re-encode at level 4.1`,
  );
}

function profileName(idc: number): string {
  const names: Record<number, string> = {
    66: 'Baseline profile (not constrained)',
    88: 'Extended profile',
    110: 'High 10 profile',
    122: 'High 4:2:2 profile',
    244: 'High 4:4:4 profile',
    118: 'Multiview High profile',
    128: 'Stereo High profile',
  };
  return names[idc] ?? `profile ${idc}`;
}

/** Checks the codec of an MP4's video track and answers its transfer syntax; refuses anything but H.264. */
export function videoTransferSyntax(info: Mp4VideoInfo): string {
  if (info.avc) return avcTransferSyntax(info.avc);
  const codec = info.codec;
  const name =
    codec === 'hvc1' || codec === 'hev1'
      ? 'HEVC (H.265)'
      : codec === 'mp4v'
        ? 'MPEG-4 Part 2'
        : codec === 'av01'
          ? 'AV1'
          : codec === 'vp09'
            ? 'VP9'
            : /^[\x20-\x7e]{4}$/.test(codec)
              ? `"${codec}"`
              : 'an unknown codec';
  throw new Mp4Problem(
    'UNSUPPORTED_VIDEO_CODEC',
    `the video is ${name}; only H.264 (AVC) MP4 video is accepted`,
  );
}

/** The DICOM file for one video, as a stream: header from dcmjs, then the MP4 from `mp4Path`. */
export function wrapVideo(
  study: WrapStudy,
  instance: WrapInstance,
  video: { info: Mp4VideoInfo; transferSyntax: string; mp4Path: string; mp4Size: number },
): Readable {
  const { info } = video;
  const frameTimeMs = 1000 / info.frameRate;
  const rate = Math.round(info.frameRate);
  const dataset: NaturalizedDataset = {
    ...commonAttributes(study, instance, VIDEO_PHOTOGRAPHIC_STORAGE, 'XC'),
    // As for wrapped photographs: brought in by a user, not acquired here. (ORIGINAL would also
    // require an Anatomic Region Sequence, which the upload form does not ask for.)
    ImageType: ['DERIVED', 'SECONDARY'],
    PatientOrientation: [],
    // Type 2C: a video may show a paired body part; the form does not say which side.
    Laterality: '',
    AcquisitionDateTime: '',
    // The video is shown as it is: it may carry names or dates drawn into the frames.
    BurnedInAnnotation: 'YES',
    SamplesPerPixel: 3,
    PhotometricInterpretation: 'YBR_PARTIAL_420',
    PlanarConfiguration: 0,
    Rows: info.height,
    Columns: info.width,
    BitsAllocated: 8,
    BitsStored: 8,
    HighBit: 7,
    PixelRepresentation: 0,
    NumberOfFrames: info.frameCount,
    FrameIncrementPointer: FRAME_TIME_TAG,
    FrameTime: decimalString(frameTimeMs),
    CineRate: rate,
    RecommendedDisplayFrameRate: rate,
    EffectiveDuration: decimalString(info.duration / info.timescale),
    LossyImageCompression: '01',
    LossyImageCompressionMethod: 'ISO_14496_10',
    AcquisitionContextSequence: [],
    _vrMap: { FrameIncrementPointer: 'AT' },
  };
  delete dataset['ConversionType'];
  const header = writePart10(
    VIDEO_PHOTOGRAPHIC_STORAGE,
    instance.sopInstanceUid,
    video.transferSyntax,
    dataset,
  );
  return Readable.from(encapsulated(header, video.mp4Path, video.mp4Size));
}

async function* encapsulated(header: Uint8Array, mp4Path: string, size: number): AsyncGenerator<Uint8Array> {
  yield header;
  const padded = size + (size % 2);
  yield ENCAPSULATED_PIXEL_DATA_HEADER;
  // Basic Offset Table: an empty item (one fragment, one stream).
  yield itemHeader(0);
  // The one fragment: the MP4 file, padded to even length with a NUL the container ignores.
  yield itemHeader(padded);
  let sent = 0;
  for await (const chunk of fs.createReadStream(mp4Path)) {
    sent += (chunk as Buffer).length;
    yield chunk as Buffer;
  }
  // The upload could not change under us (it is our temp file), but a short read must not pass.
  if (sent !== size) throw new Error(`video temp file changed size (${sent} of ${size} bytes)`);
  if (padded > size) yield new Uint8Array(1);
  yield sequenceDelimiter();
}

/** DS values are at most 16 characters. */
function decimalString(value: number): string {
  for (let digits = 6; digits >= 0; digits--) {
    const text = String(Number(value.toFixed(digits)));
    if (text.length <= 16) return text;
  }
  return String(Math.round(value));
}
