/**
 * Real MP4 files for the video wrapping tests, made by Debian's ffmpeg (scripts/system-deps.sh) from
 * its built-in test sources: H.264 at chosen profiles and levels, and the kinds the wrapping refuses.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'videos-'));

/** Runs ffmpeg with a test-pattern input and `args`; answers the file's bytes. */
export function ffmpegVideo(name: string, args: string[]): Uint8Array {
  const out = path.join(dir, name);
  if (!fs.existsSync(out)) {
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, out], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
  }
  return new Uint8Array(fs.readFileSync(out));
}

const testsrc = (size: string, rate: number, seconds: number) => [
  '-f',
  'lavfi',
  '-i',
  `testsrc=size=${size}:rate=${rate}`,
  '-t',
  String(seconds),
];

/** H.264 High Profile in MP4, 4:2:0; `faststart` puts the movie box before the media data. */
export function h264Mp4(
  options: { size?: string; rate?: number; seconds?: number; level?: string; faststart?: boolean } = {},
): Uint8Array {
  const { size = '320x240', rate = 25, seconds = 2, level, faststart = false } = options;
  const name = `h264-${size}-${rate}-${seconds}-${level ?? 'auto'}-${faststart ? 'fs' : 'plain'}.mp4`;
  return ffmpegVideo(name, [
    ...testsrc(size, rate, seconds),
    '-c:v',
    'libx264',
    '-profile:v',
    'high',
    ...(level ? ['-level', level] : []),
    '-pix_fmt',
    'yuv420p',
    ...(faststart ? ['-movflags', '+faststart'] : []),
  ]);
}

/** MPEG-4 Part 2 video in an MP4: a real video the wrapping must refuse (not H.264). */
export function mpeg4Part2Mp4(): Uint8Array {
  return ffmpegVideo('mpeg4.mp4', [...testsrc('320x240', 25, 1), '-c:v', 'mpeg4']);
}

/** H.264 High 10 (10-bit): H.264, but beyond the High Profile DICOM's syntaxes name. */
export function high10Mp4(): Uint8Array {
  return ffmpegVideo('high10.mp4', [
    ...testsrc('320x240', 25, 1),
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p10le',
  ]);
}

/** An MP4 with only a sound track. */
export function audioOnlyMp4(): Uint8Array {
  return ffmpegVideo('audio.mp4', ['-f', 'lavfi', '-i', 'sine=frequency=440:duration=1', '-c:a', 'aac']);
}

/** H.264 video with an AAC sound track, as a phone records. */
export function h264WithSoundMp4(): Uint8Array {
  return ffmpegVideo('sound.mp4', [
    ...testsrc('320x240', 30, 1),
    '-f',
    'lavfi',
    '-i',
    'sine=frequency=440:duration=1',
    '-c:v',
    'libx264',
    '-pix_fmt',
    'yuv420p',
    '-c:a',
    'aac',
    '-shortest',
  ]);
}
