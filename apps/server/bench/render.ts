/**
 * Latency of one rendered frame (`/rendered`'s work: read the frame, decode it, window it, encode a
 * PNG) for each compressed syntax, from the pydicom test files, sequentially and with 8 at once.
 * Prints the median and 95th percentile in milliseconds.
 *
 *   npm run bench:render [-- --rounds 40]
 */
import fs from 'node:fs';
import { parseArgs } from 'node:util';
import { renderImage } from '../src/imaging/render-image.js';

const { values: args } = parseArgs({ options: { rounds: { type: 'string', default: '40' } } });
const rounds = Number(args.rounds);
const DIR = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const FILES = {
  'JPEG baseline (RGB 100×100)': 'SC_rgb_jpeg_dcmtk.dcm',
  'JPEG-LS (MR 64×64)': 'MR_small_jpeg_ls_lossless.dcm',
  'JPEG 2000 (256×1024)': 'JPEG2000.dcm',
  'RLE (MR 64×64)': 'MR_small_RLE.dcm',
};
const request = { frame: 1, type: 'image/png' } as const;

function summary(times: number[]): string {
  const sorted = [...times].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!;
  return `median ${at(0.5).toFixed(1)} ms, p95 ${at(0.95).toFixed(1)} ms`;
}

for (const [label, name] of Object.entries(FILES)) {
  const file = fs.readFileSync(`${DIR}/${name}`);
  await renderImage(file, request); // codecs loaded, caches warm
  const one: number[] = [];
  for (let i = 0; i < rounds; i++) {
    const started = performance.now();
    await renderImage(file, request);
    one.push(performance.now() - started);
  }
  const eight: number[] = [];
  for (let i = 0; i < rounds / 4; i++) {
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        const started = performance.now();
        await renderImage(file, request);
        eight.push(performance.now() - started);
      }),
    );
  }
  console.log(`${label}: one at a time ${summary(one)}; 8 at once ${summary(eight)}`);
}
process.exit(0);
