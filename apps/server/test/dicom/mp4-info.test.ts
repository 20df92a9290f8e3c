/**
 * The MP4 box reader and the H.264 transfer syntax choice, on files Debian's ffmpeg makes and on
 * hand-written decoder configurations for the profiles ffmpeg here cannot produce.
 */
import fsp from 'node:fs/promises';
import { afterAll, describe, expect, it } from 'vitest';
import { Mp4Problem, readMp4Info } from '../../src/dicom/mp4-info.js';
import { avcTransferSyntax, MPEG4_HP41, MPEG4_HP42_2D } from '../../src/dicom/wrap-video.js';
import { tempDir } from './support.js';
import { h264Mp4, h264WithSoundMp4 } from '../support/videos.js';
import {
  cutInsideOpenMdat,
  editMp4,
  findBoxes,
  parseBoxes,
  payloadOf,
  withCo64,
  withLargeSizes,
} from '../support/mp4-boxes.js';

const tmp = tempDir();
afterAll(() => tmp.cleanup());

async function infoOf(name: string, bytes: Uint8Array) {
  const file = await fsp.open(tmp.write(name, bytes), 'r');
  try {
    return await readMp4Info(file, bytes.length);
  } finally {
    await file.close();
  }
}

describe('readMp4Info', () => {
  it('describes the video track of an ffmpeg H.264 MP4, movie box first or last', async () => {
    for (const faststart of [false, true]) {
      const info = await infoOf(
        `c-${faststart}.mp4`,
        h264Mp4({ size: '352x288', rate: 25, seconds: 2, faststart }),
      );
      expect(info).toMatchObject({
        codec: 'avc1',
        avc: { profileIdc: 100 },
        width: 352,
        height: 288,
        trackWidth: 352,
        trackHeight: 288,
        frameCount: 50,
        frameRate: 25,
        hasAudio: false,
      });
      expect(info.duration / info.timescale).toBeCloseTo(2, 2);
    }
  });

  it('finds the video track after or beside a sound track', async () => {
    const info = await infoOf('sound.mp4', h264WithSoundMp4());
    expect(info).toMatchObject({ codec: 'avc1', width: 320, height: 240, frameRate: 30, hasAudio: true });
  });

  it('refuses a box that runs past the end of the file', async () => {
    const clip = h264Mp4();
    await expect(infoOf('cut.mp4', clip.slice(0, clip.length - 10))).rejects.toThrow(Mp4Problem);
    await expect(infoOf('tiny.mp4', clip.slice(0, 20))).rejects.toThrow(/cut off/);
  });

  it('reads 64-bit chunk offsets (co64) as it reads 32-bit ones', async () => {
    const clip = h264Mp4();
    const wide = withCo64(clip);
    expect(findBoxes(parseBoxes(wide), 'co64')).toHaveLength(1);
    expect(findBoxes(parseBoxes(wide), 'stco')).toHaveLength(0);
    expect(await infoOf('co64.mp4', wide)).toEqual(await infoOf('stco.mp4', clip));
    // With sound: both tracks' tables are read (and checked) in their 64-bit form.
    const sound = withCo64(h264WithSoundMp4());
    expect(findBoxes(parseBoxes(sound), 'co64')).toHaveLength(2);
    expect(await infoOf('co64-sound.mp4', sound)).toMatchObject({ frameRate: 30, hasAudio: true });
  });

  it('reads 64-bit box sizes (size 1 and a largesize), at the top level and inside the movie box', async () => {
    const clip = h264Mp4();
    const large = withLargeSizes(clip);
    expect(large.length).toBe(clip.length + 3 * 8); // moov, stbl, stsz grew; mdat took the free box
    expect(parseBoxes(large).map((b) => [b.type, b.large])).toEqual([
      ['ftyp', false],
      ['mdat', true],
      ['moov', true],
    ]);
    expect(await infoOf('large.mp4', large)).toEqual(await infoOf('small.mp4', clip));
  });

  it('refuses a file cut inside its last chunk behind an mdat that runs "to the end of the file"', async () => {
    const clip = h264Mp4({ faststart: true });
    const cut = cutInsideOpenMdat(clip, 10);
    // The last chunk starts inside what is left: only its end, from the sample sizes, is missing.
    const offsets = payloadOf(parseBoxes(clip), 'stco');
    const lastChunk = offsets.getUint32(8 + 4 * (offsets.getUint32(4) - 1));
    expect(lastChunk).toBeLessThan(cut.length);
    await expect(infoOf('open-cut.mp4', cut)).rejects.toThrow(
      'INVALID_FILE_CONTENT: MP4 is cut off: media data runs past the end of the file',
    );
    // The same file whole, with its mdat open-ended, is fine.
    expect(await infoOf('open.mp4', cutInsideOpenMdat(clip, 0))).toMatchObject({ frameCount: 50 });
  });

  it('checks the chunks of the sound track too: they are stored with the video', async () => {
    const sound = h264WithSoundMp4();
    const pastEnd = editMp4(sound, (boxes) => {
      const track = findBoxes(boxes, 'trak').find((t) => {
        const hdlr = payloadOf([t], 'hdlr');
        return String.fromCharCode(...[8, 9, 10, 11].map((i) => hdlr.getUint8(i))) === 'soun';
      })!;
      // Its last sample (per-sample sizes, as AAC has) made as long as the whole file.
      const stsz = payloadOf([track], 'stsz');
      expect(stsz.getUint32(4)).toBe(0);
      stsz.setUint32(12 + 4 * (stsz.getUint32(8) - 1), sound.length);
    });
    await expect(infoOf('sound-past.mp4', pastEnd)).rejects.toThrow(/cut off: media data runs past the end/);
  });

  it('refuses a zero timescale, which gives the video no time base', async () => {
    const zero = editMp4(h264Mp4(), (boxes) => {
      const mdhd = payloadOf(boxes, 'mdhd');
      expect(mdhd.getUint8(0)).toBe(0); // version 0: timescale at byte 12
      mdhd.setUint32(12, 0);
    });
    await expect(infoOf('zero.mp4', zero)).rejects.toThrow(
      'INVALID_FILE_CONTENT: MP4 media header has a zero timescale',
    );
  });

  it('refuses frame counts on which stts and stsz disagree rather than choosing one', async () => {
    // The first stts run times one frame more than stsz sizes.
    const moreTimed = editMp4(h264Mp4(), (boxes) => {
      const stts = payloadOf(boxes, 'stts');
      stts.setUint32(8, stts.getUint32(8) + 1);
    });
    await expect(infoOf('stts-more.mp4', moreTimed)).rejects.toThrow(
      'MP4 sample tables disagree on the number of frames (51 timed in stts, 50 sized in stsz)',
    );
    // stsz says 49 (the table is longer than it needs: that alone would not matter).
    const fewerSized = editMp4(h264Mp4(), (boxes) => payloadOf(boxes, 'stsz').setUint32(8, 49));
    await expect(infoOf('stsz-fewer.mp4', fewerSized)).rejects.toThrow(/50 timed in stts, 49 sized in stsz/);
  });

  it('refuses chunk tables that do not account for the samples', async () => {
    // stsc says the first chunk holds one sample more: the chunks then claim 51 samples of 50.
    const more = editMp4(h264Mp4(), (boxes) => {
      const stsc = payloadOf(boxes, 'stsc');
      stsc.setUint32(12, stsc.getUint32(12) + 1);
    });
    await expect(infoOf('stsc-more.mp4', more)).rejects.toThrow(
      'MP4 sample-to-chunk table disagrees with the sample sizes',
    );
    const unordered = editMp4(h264Mp4(), (boxes) => payloadOf(boxes, 'stsc').setUint32(8, 2));
    await expect(infoOf('stsc-order.mp4', unordered)).rejects.toThrow(
      /sample-to-chunk table is out of order/,
    );
  });
});

describe('avcTransferSyntax', () => {
  const avc = (profileIdc: number, levelIdc: number, constraintFlags = 0) => ({
    profileIdc,
    levelIdc,
    constraintFlags,
  });

  it('takes High Profile / Level 4.1 for High, Main and Constrained Baseline up to level 4.1', () => {
    expect(avcTransferSyntax(avc(100, 41))).toBe(MPEG4_HP41);
    expect(avcTransferSyntax(avc(100, 13))).toBe(MPEG4_HP41);
    expect(avcTransferSyntax(avc(77, 31))).toBe(MPEG4_HP41);
    expect(avcTransferSyntax(avc(66, 30, 0xc0))).toBe(MPEG4_HP41);
  });

  it('takes Level 4.2 For 2D Video at level 4.2', () => {
    expect(avcTransferSyntax(avc(100, 42))).toBe(MPEG4_HP42_2D);
  });

  it('refuses profiles and levels no DICOM H.264 syntax names', () => {
    expect(() => avcTransferSyntax(avc(100, 50))).toThrow(/level 5 is above 4\.2/);
    expect(() => avcTransferSyntax(avc(66, 30))).toThrow(/Baseline profile \(not constrained\)/);
    expect(() => avcTransferSyntax(avc(110, 41))).toThrow(/High 10/);
    expect(() => avcTransferSyntax(avc(122, 41))).toThrow(/4:2:2/);
    expect(() => avcTransferSyntax(avc(128, 41))).toThrow(/Stereo High/);
  });
});
