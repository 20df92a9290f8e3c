import dicomParser from 'dicom-parser';
import { Prng } from '../../src/dicom/prng.js';

/**
 * Seeded changes to real DICOM files for the hardening and fuzz tests: the same seed always makes
 * the same file, so a failure names the seed that reproduces it.
 */

/** The file with `count` bytes of its first Pixel Data fragment (or native pixels) overwritten. */
export function corruptFrame(file: Uint8Array, seed: number, count: number): Buffer {
  const out = Buffer.from(file);
  const element = dicomParser.parseDicom(out).elements['x7fe00010'];
  if (!element) throw new Error('no Pixel Data');
  const fragment = element.fragments?.[0];
  const start = fragment ? fragment.position : element.dataOffset;
  const length = fragment ? fragment.length : element.length;
  const prng = new Prng(seed);
  // Past the first 32 bytes (the codestream's markers), so most corruptions reach the entropy decoder.
  const from = start + Math.min(32, Math.floor(length / 4));
  for (let i = 0; i < count; i++) out[prng.int(from, start + length - 1)] = prng.int(0, 255);
  return out;
}

/**
 * The file under another SOP Instance UID: the last digits of (0002,0003) and (0008,0018) replaced
 * by `n` (same length, so nothing else moves).
 */
export function withSopInstanceUid(file: Uint8Array, n: number): Buffer {
  const out = Buffer.from(file);
  const dataSet = dicomParser.parseDicom(out, { untilTag: 'x7fe00010' });
  const digits = String(n);
  for (const tag of ['x00020003', 'x00080018']) {
    const element = dataSet.elements[tag];
    if (!element) continue;
    let end = element.dataOffset + element.length;
    while (end > element.dataOffset && (out[end - 1] === 0 || out[end - 1] === 0x20)) end--;
    out.write(digits, end - digits.length, 'latin1');
  }
  return out;
}

/** Seeded byte-level mutations of a whole file: flips, overwrites, cuts, repeats and inserted junk. */
export function mutateFile(file: Uint8Array, prng: Prng): Buffer {
  let out = Buffer.from(file);
  const edits = prng.int(1, 6);
  for (let e = 0; e < edits; e++) {
    const at = prng.int(0, Math.max(0, out.length - 1));
    switch (prng.int(0, 5)) {
      case 0: // flip a few bits
        for (let i = 0; i < prng.int(1, 8); i++) {
          const p = prng.int(0, out.length - 1);
          out[p] = out[p]! ^ (1 << prng.int(0, 7));
        }
        break;
      case 1: // overwrite a run with one extreme value (lengths, VRs)
        out.fill(prng.pick([0x00, 0xff, 0x7f, 0x80]), at, Math.min(out.length, at + prng.int(1, 8)));
        break;
      case 2: // cut the file short
        out = out.subarray(0, Math.max(0, at));
        break;
      case 3: // repeat a slice
        out = Buffer.concat([out.subarray(0, at), out.subarray(at, at + prng.int(1, 512)), out.subarray(at)]);
        break;
      case 4: // insert random bytes
        out = Buffer.concat([
          out.subarray(0, at),
          Buffer.from(Array.from({ length: prng.int(1, 64) }, () => prng.int(0, 255))),
          out.subarray(at),
        ]);
        break;
      default: // overwrite a 32-bit length-like value
        if (at + 4 <= out.length)
          out.writeUInt32LE(prng.pick([0xffffffff, 0x7fffffff, 0xfffffffe, 1 << 30, 3]), at);
    }
  }
  return out;
}
