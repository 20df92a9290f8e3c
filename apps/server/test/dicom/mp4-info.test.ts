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
