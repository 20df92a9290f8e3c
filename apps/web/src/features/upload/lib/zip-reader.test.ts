import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { readPrefix } from './byte-source';
import {
  entryBlob,
  entryDataStart,
  entryStream,
  readZipEntries,
  ZIP_DEFLATED,
  ZIP_STORED,
  ZipError,
  type ZipEntry,
} from './zip-reader';
import { manyEntriesWithPython, zip64WithPython, zipWithInfoZip } from './test-zip';

// Compressible text and incompressible noise, in a nested folder: both methods appear.
const text = 'DICOM '.repeat(50_000);
const noise = randomBytes(70_000);
const tree = { 'STUDY/SERIES1/IMG1.txt': text, 'STUDY/noise.bin': noise, 'top.txt': 'hello' };

async function contents(zip: Blob, entry: ZipEntry): Promise<Uint8Array> {
  const start = await entryDataStart(zip, entry);
  return new Uint8Array(await (await entryBlob(zip, entry, start)).arrayBuffer());
}

async function expectTree(zip: Blob) {
  const entries = await readZipEntries(zip);
  const files = entries.filter((e) => !e.directory);
  expect(files.map((e) => e.path).sort()).toEqual(['STUDY/SERIES1/IMG1.txt', 'STUDY/noise.bin', 'top.txt']);
  const byPath = new Map(files.map((e) => [e.path, e]));
  expect(new TextDecoder().decode(await contents(zip, byPath.get('STUDY/SERIES1/IMG1.txt')!))).toBe(text);
  expect(Buffer.from(await contents(zip, byPath.get('STUDY/noise.bin')!)).equals(noise)).toBe(true);
  expect(byPath.get('STUDY/SERIES1/IMG1.txt')!.size).toBe(text.length);
  return entries;
}

describe('readZipEntries and entryBlob on real archives', () => {
  it('reads a deflated Info-ZIP archive with nested folders (directories listed as such)', async () => {
    const entries = await expectTree(zipWithInfoZip(tree));
    expect(entries.find((e) => e.path === 'STUDY/SERIES1/IMG1.txt')!.method).toBe(ZIP_DEFLATED);
    expect(entries.filter((e) => e.directory).map((e) => e.path)).toContain('STUDY/SERIES1/');
  });

  it('reads a stored archive: entries are slices of the archive, nothing inflated', async () => {
    const zip = zipWithInfoZip(tree, { stored: true });
    const entries = await expectTree(zip);
    expect(entries.every((e) => e.method === ZIP_STORED)).toBe(true);
  });

  it('reads an archive written to a pipe, where every entry has a data descriptor', async () => {
    await expectTree(zipWithInfoZip(tree, { streamed: true }));
  });

  it('reads a ZIP64 archive (sizes, offsets and the entry count in ZIP64 records)', async () => {
    const zip = zip64WithPython(tree);
    // Python wrote the ZIP64 end record and locator, and 0xFFFFFFFF in the 32-bit fields.
    const bytes = Buffer.from(await zip.arrayBuffer());
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x06]))).toBe(true);
    expect(bytes.includes(Buffer.from([0x50, 0x4b, 0x06, 0x07]))).toBe(true);
    await expectTree(zip);
  });

  it('lists an archive of more than 65,535 entries (the count only in the ZIP64 end record)', async () => {
    const entries = await readZipEntries(manyEntriesWithPython(66_000));
    expect(entries).toHaveLength(66_000);
    expect(entries[65_999]!.path).toBe('F/065999');
  }, 60_000);

  it('reads archives behind a prepended stub (self-extractor) and with a trailing comment', async () => {
    const zip = zipWithInfoZip(tree);
    const stub = new Uint8Array(1000).fill(7);
    const comment = new Uint8Array(await zip.arrayBuffer());
    // Set the comment length in the end record and append the comment.
    const withComment = new Uint8Array(comment.length + 5);
    withComment.set(comment);
    withComment[comment.length - 2] = 5;
    withComment.set(new TextEncoder().encode('PK!!!'), comment.length);
    await expectTree(new Blob([stub, withComment]));
  });

  it('inflates only a prefix when asked for the first bytes of a large entry', async () => {
    const zip = zipWithInfoZip(tree);
    const entry = (await readZipEntries(zip)).find((e) => e.path === 'STUDY/SERIES1/IMG1.txt')!;
    const head = await readPrefix(entryStream(zip, entry, await entryDataStart(zip, entry)), 12);
    expect(new TextDecoder().decode(head)).toBe('DICOM DICOM ');
  });

  it('refuses a file that is not a ZIP, a truncated archive and a corrupted entry, with codes', async () => {
    await expect(readZipEntries(new Blob(['not a zip at all']))).rejects.toMatchObject({ code: 'NOT_ZIP' });
    const zip = new Uint8Array(await zipWithInfoZip(tree).arrayBuffer());
    const cut = new Blob([zip.slice(0, zip.length - 40)]);
    await expect(readZipEntries(cut)).rejects.toBeInstanceOf(ZipError);

    const entries = await readZipEntries(new Blob([zip]));
    const entry = entries.find((e) => e.path === 'STUDY/SERIES1/IMG1.txt')!;
    const start = await entryDataStart(new Blob([zip]), entry);
    const damaged = zip.slice();
    damaged[start + 20] = damaged[start + 20]! ^ 0xff;
    await expect(entryBlob(new Blob([damaged]), entry, start)).rejects.toMatchObject({ code: 'DAMAGED' });
  });

  it('refuses encrypted entries and unknown methods with a message naming the entry', async () => {
    const zip = zipWithInfoZip({ 'a.txt': 'secret' });
    const [entry] = await readZipEntries(zip);
    const start = await entryDataStart(zip, entry!);
    await expect(entryBlob(zip, { ...entry!, encrypted: true }, start)).rejects.toMatchObject({
      code: 'ENCRYPTED',
      message: 'a.txt is encrypted (password-protected) and cannot be read.',
    });
    expect(() => entryStream(zip, { ...entry!, method: 12 }, start)).toThrow(/method 12/);
  });
});
