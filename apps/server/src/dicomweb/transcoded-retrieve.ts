import type { AppContext } from '../context.js';
import { notAcceptable } from '../domain/errors.js';
import { UnsupportedImageError } from '../imaging/frame-reader.js';
import { EXPLICIT_LE, toExplicitLittleEndian } from '../imaging/transcode.js';
import type { InstanceRow } from '../repositories/dicomweb.repository.js';
import type { Part } from './multipart-writer.js';

/** True when the Accept header asks for instances in Explicit VR Little Endian (PS3.18 8.7.3.5.2). */
export function wantsExplicitLittleEndian(accept: string | undefined): boolean {
  if (!accept) return false;
  return accept
    .split(',')
    .some((range) =>
      new RegExp(`transfer-syntax\\s*=\\s*"?${EXPLICIT_LE.replace(/\./g, '\\.')}"?(;|$)`).test(range.trim()),
    );
}

/**
 * Instances rewritten in Explicit VR Little Endian, one at a time as the client reads them. A
 * single instance that cannot be decoded answers 406; within a series or study such an instance
 * (a report, a 1-bit overlay) goes out as stored rather than failing the whole retrieval.
 */
export async function transcodedParts<T extends InstanceRow>(
  ctx: AppContext,
  instances: T[],
  location: (instance: T) => string,
): Promise<Iterable<Part> | AsyncIterable<Part>> {
  const one = async (instance: T): Promise<Part> => {
    const file = await ctx.services.blobs.read(instance.blob_key);
    return {
      contentType: `application/dicom; transfer-syntax=${EXPLICIT_LE}`,
      bytes: await toExplicitLittleEndian(file),
      location: location(instance),
    };
  };
  if (instances.length === 1) {
    let part: Part;
    try {
      part = await one(instances[0]!);
    } catch (error) {
      if (error instanceof UnsupportedImageError) throw notAcceptable('INVALID_DICOM', error.message);
      throw error;
    }
    return [part];
  }
  return (async function* () {
    for (const instance of instances) {
      try {
        yield await one(instance);
      } catch (error) {
        if (!(error instanceof UnsupportedImageError)) throw error;
        yield {
          contentType: 'application/dicom',
          open: () => ctx.services.blobs.readStream(instance.blob_key),
          location: location(instance),
        };
      }
    }
  })();
}
