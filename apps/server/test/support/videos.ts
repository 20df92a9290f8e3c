/**
 * Real MP4 files for the video wrapping tests, made by Debian's ffmpeg (scripts/system-deps.sh) from
 * its built-in test sources: H.264 at chosen profiles and levels, and the kinds the wrapping refuses.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Made once per machine and reused: the same arguments make the same file. */
const dir = path.join(os.tmpdir(), 'imaging-inbox-test-videos');
fs.mkdirSync(dir, { recursive: true });

/** Runs ffmpeg with a test-pattern input and `args`; answers the file's bytes. */
export function ffmpegVideo(name: string, args: string[]): Uint8Array {
  const out = path.join(dir, name);
  if (!fs.existsSync(out)) {
    // Written beside and renamed, so a parallel test run never reads half a file.
    const partial = `${out}.${process.pid}.part.mp4`;
    execFileSync('ffmpeg', ['-loglevel', 'error', '-y', ...args, partial], {
      stdio: ['ignore', 'ignore', 'pipe'],
    });
    fs.renameSync(partial, out);
  }
  return new Uint8Array(fs.readFileSync(out));
}

/** The MP4 with a 9-byte `free` box appended when its length is even: still valid, now odd-sized. */
export function oddLength(mp4: Uint8Array): Uint8Array {
  if (mp4.length % 2 === 1) return mp4;
  const free = new Uint8Array([0, 0, 0, 9, 0x66, 0x72, 0x65, 0x65, 0]);
  const out = new Uint8Array(mp4.length + free.length);
  out.set(mp4, 0);
  out.set(free, mp4.length);
  return out;
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
