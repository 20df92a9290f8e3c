/**
 * Checks an uploaded MP4 from its temp file (never read whole): the box tree describes a video
 * track, the track is H.264 at a profile and level DICOM defines a transfer syntax for.
 */
import fsp from 'node:fs/promises';
import { Mp4Problem, readMp4Info, type Mp4VideoInfo } from './mp4-info.js';
import { WrapInputError } from './wrap-input.js';
import { videoTransferSyntax } from './wrap-video.js';

export interface CheckedVideo {
  info: Mp4VideoInfo;
  transferSyntax: string;
}

export async function inspectVideo(filePath: string, size: number): Promise<CheckedVideo> {
  const file = await fsp.open(filePath, 'r');
  try {
    const info = await readMp4Info(file, size);
    return { info, transferSyntax: videoTransferSyntax(info) };
  } catch (error) {
    if (error instanceof Mp4Problem) throw new WrapInputError(error.code, error.detail);
    throw error;
  } finally {
    await file.close();
  }
}
