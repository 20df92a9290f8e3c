/**
 * The codec worker (`codec-pool.ts`): dcmjs-codecs' WebAssembly decoders and JPEG encoder, one
 * instance per worker thread. Plain JavaScript evaluated from a string, so it runs unchanged under
 * tsx, vitest and the compiled server (as `storage/durable-writer.ts`); `workerData.codecsPath` is
 * the package's resolved entry point.
 *
 * Answers `{ id, ok: true, data, photometric, planarConfiguration }` or `{ id, ok: false, message,
 * trap }`; `trap` says the WebAssembly itself failed (`RuntimeError`), after which the pool throws
 * this worker away. Pixels travel as transferred ArrayBuffers (no copy).
 */
export const CODEC_WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
// Each worker compiles the WebAssembly itself: a module compiled once and shared with the workers
// saved a third of a replacement's start but decoded JPEG four times slower (never optimised).
// dcmjs-codecs requires dcmjs for its transcoder, which is not used here; loading dcmjs cost a
// replacement worker more than 100 ms, so it gets an empty stand-in.
const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  return request === 'dcmjs' ? { data: {}, log: {} } : load.call(this, request, ...rest);
};
const { Context, NativeCodecs, log } = require(workerData.codecsPath);
Module._load = load;
log.setLevel('silent');
const ready = NativeCodecs.isInitialized() ? Promise.resolve() : NativeCodecs.initializeAsync();
const jpeg = (c) => NativeCodecs.decodeJpeg(c, { convertColorspaceToRgb: true });
const DECODERS = {
  '1.2.840.10008.1.2.4.50': jpeg,
  '1.2.840.10008.1.2.4.51': jpeg,
  '1.2.840.10008.1.2.4.57': jpeg,
  '1.2.840.10008.1.2.4.70': jpeg,
  '1.2.840.10008.1.2.4.80': (c) => NativeCodecs.decodeJpegLs(c),
  '1.2.840.10008.1.2.4.81': (c) => NativeCodecs.decodeJpegLs(c),
  '1.2.840.10008.1.2.4.90': (c) => NativeCodecs.decodeJpeg2000(c),
  '1.2.840.10008.1.2.4.91': (c) => NativeCodecs.decodeJpeg2000(c),
  '1.2.840.10008.1.2.4.201': (c) => NativeCodecs.decodeHtJpeg2000(c),
  '1.2.840.10008.1.2.4.202': (c) => NativeCodecs.decodeHtJpeg2000(c),
  '1.2.840.10008.1.2.4.203': (c) => NativeCodecs.decodeHtJpeg2000(c),
  '1.2.840.10008.1.2.5': (c) => NativeCodecs.decodeRle(c),
};
function decode(job) {
  const decoder = DECODERS[job.syntax];
  if (!decoder) throw new Error('no decoder for transfer syntax ' + job.syntax);
  const l = job.layout;
  const context = new Context({
    width: l.width, height: l.height, bitsAllocated: l.bitsAllocated, bitsStored: l.bitsStored,
    samplesPerPixel: l.samplesPerPixel, pixelRepresentation: l.pixelRepresentation,
    planarConfiguration: l.planarConfiguration, photometricInterpretation: l.photometric,
    encodedBuffer: job.encoded,
  });
  const decoded = decoder(context);
  const data = decoded.getDecodedBuffer();
  if (!data) throw new Error('the codec returned no pixels');
  if (data.byteLength > job.maxBytes) throw new Error('the codec returned more pixels than the image holds');
  return {
    data,
    photometric: decoded.getPhotometricInterpretation() || l.photometric,
    planarConfiguration: decoded.getPlanarConfiguration() ?? l.planarConfiguration,
  };
}
function encodeJpeg(job) {
  const context = new Context({
    width: job.width, height: job.height, bitsAllocated: 8, bitsStored: 8,
    samplesPerPixel: job.channels, pixelRepresentation: 0, planarConfiguration: 0,
    photometricInterpretation: job.channels === 3 ? 'RGB' : 'MONOCHROME2', decodedBuffer: job.pixels,
  });
  const data = NativeCodecs.encodeJpeg(context, { lossy: true, quality: job.quality }).getEncodedBuffer();
  if (!data) throw new Error('the JPEG encoder returned nothing');
  return { data };
}
parentPort.on('message', async (job) => {
  try {
    await ready;
    const answer = job.op === 'decode' ? decode(job) : encodeJpeg(job);
    // getDecodedBuffer/getEncodedBuffer hand back copies out of the WebAssembly memory: transferable.
    const data = answer.data.byteOffset === 0 && answer.data.byteLength === answer.data.buffer.byteLength
      ? answer.data : answer.data.slice();
    parentPort.postMessage({ ...answer, id: job.id, ok: true, data }, [data.buffer]);
  } catch (error) {
    const message = error && error.message ? error.message : String(error);
    parentPort.postMessage({ id: job.id, ok: false, message, trap: error instanceof WebAssembly.RuntimeError });
  }
});
`;
