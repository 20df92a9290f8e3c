import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { filesOfSources, uploadBody, ZipEntryFile } from './media-file';
import { MAX_ZIP_DEPTH, scanMedia, type PickedFile } from './media-scan';
import { groupStudies, scanError } from './studies';
import { buildTestDicom } from './test-dicom';
import { writeTree, zipWithInfoZip, type TreeFiles } from './test-zip';
import { readZipEntries, ZIP_DEFLATED, ZIP_STORED } from './zip-reader';

const SAMPLES = '/usr/lib/python3/dist-packages/pydicom/data/test_files';
const sample = (name: string) => new Uint8Array(readFileSync(path.join(SAMPLES, name)));

/** A small instance of `study`; the pixel bytes make deflated and stored entries differ in size. */
function instance(study: string, n: number, patient = 'DOE^JANE'): Uint8Array {
  return buildTestDicom(
    [
      [0x0008, 0x0018, 'UI', `${study}.${n}`],
      [0x0008, 0x0060, 'CS', 'CT'],
      [0x0010, 0x0010, 'PN', patient],
      [0x0020, 0x000d, 'UI', study],
    ],
    20_000,
  );
}

const temps: string[] = [];
afterEach(() => {
  for (const dir of temps.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Every file under `dir` as the folder picker gives it: path from the picked folder's name. */
function pickFolder(dir: string, name = 'media'): PickedFile[] {
  const out: PickedFile[] = [];
  const walk = (at: string) => {
    for (const entry of readdirSync(at).sort()) {
      const full = path.join(at, entry);
      if (statSync(full).isDirectory()) walk(full);
      else
        out.push({
          file: new File([readFileSync(full)], entry),
          path: `${name}/${path.relative(dir, full)}`,
        });
    }
  };
  walk(dir);
  return out;
}

const pick = (name: string, blob: Blob): PickedFile => ({ file: new File([blob], name), path: name });

async function bytesOf(file: File): Promise<Uint8Array> {
  return new Uint8Array(await (await uploadBody(file)).arrayBuffer());
}

/** A two-study folder tree with junk next to the instances. */
const twoStudies: TreeFiles = {
  'A/SERIES1/IM1.dcm': instance('1.2.840.1', 1),
  'A/SERIES1/IM2.dcm': instance('1.2.840.1', 2),
  'B/IM1': instance('1.2.840.2', 1, 'ROE^RICHARD'),
  'B/notes.txt': 'not an instance',
  '.DS_Store': 'hidden',
  '__MACOSX/A/._IM1.dcm': instance('1.2.840.9', 1),
};

describe('scanMedia: ZIP archives', () => {
  for (const [label, options] of [
    ['deflated', {}],
    ['stored', { stored: true }],
    ['written to a pipe (data descriptors)', { streamed: true }],
  ] as const) {
    it(`finds the studies of a ${label} ZIP and gives Files with the original bytes`, async () => {
      const picked = [pick('exams.zip', zipWithInfoZip(twoStudies, options))];
      const result = await scanMedia(picked);
      const files = filesOfSources(picked, result.sources);
      const studies = groupStudies(result.parsed, (i) => files[i]!.size);
      expect(studies.map((s) => [s.studyUid, s.fileIndexes.length, s.patientName]).sort()).toEqual([
        ['1.2.840.1', 2, 'DOE^JANE'],
        ['1.2.840.2', 1, 'ROE^RICHARD'],
      ]);
      // The __MACOSX copy and the hidden file are never read; notes.txt is read and is not DICOM.
      expect(result.sources.map((s) => s.path).sort()).toEqual([
        'exams.zip/A/SERIES1/IM1.dcm',
        'exams.zip/A/SERIES1/IM2.dcm',
        'exams.zip/B/IM1',
      ]);
      // Counted like a picked folder's files: the three instances, notes.txt and .DS_Store.
      expect(result.fileCount).toBe(5);
      expect(scanError(result, studies.length)).toBeNull();
      const im2 = files[result.sources.findIndex((s) => s.path.endsWith('IM2.dcm'))]!;
      expect(im2.size).toBe(instance('1.2.840.1', 2).length);
      expect(im2 instanceof ZipEntryFile).toBe(label !== 'stored');
      expect(Buffer.from(await bytesOf(im2)).equals(Buffer.from(instance('1.2.840.1', 2)))).toBe(true);
    });
  }

  it('reads a ZIP found inside a picked folder, next to plain files', async () => {
    const dir = writeTree({ 'C/IM1.dcm': instance('1.2.840.3', 1) });
    temps.push(dir);
    writeFileSync(
      path.join(dir, 'C/more.zip'),
      new Uint8Array(await zipWithInfoZip(twoStudies).arrayBuffer()),
    );
    const result = await scanMedia(pickFolder(dir));
    expect(result.sources.map((s) => s.path).sort()).toEqual([
      'media/C/IM1.dcm',
      'media/C/more.zip/A/SERIES1/IM1.dcm',
      'media/C/more.zip/A/SERIES1/IM2.dcm',
      'media/C/more.zip/B/IM1',
    ]);
  });

  it('names encrypted entries one by one; an archive of only encrypted entries cannot be loaded', async () => {
    const dir = writeTree({ 'IM1.dcm': instance('1.2.840.4', 1), 'IM2.dcm': instance('1.2.840.4', 2) });
    temps.push(dir);
    execFileSync('zip', ['-q', '-P', 'secret', 'locked.zip', 'IM1.dcm', 'IM2.dcm'], { cwd: dir });
    const result = await scanMedia([
      pick('locked.zip', new Blob([readFileSync(path.join(dir, 'locked.zip'))])),
    ]);
    expect(result.problems).toEqual([
      { path: 'locked.zip/IM1.dcm', reason: 'encrypted' },
      { path: 'locked.zip/IM2.dcm', reason: 'encrypted' },
    ]);
    expect(result.parsed).toEqual([]);
    expect(scanError(result, 0)).toBe('uploadCannotLoad');
  });

  it('says a damaged archive is damaged and still reads the other files', async () => {
    const zip = new Uint8Array(await zipWithInfoZip(twoStudies).arrayBuffer());
    const result = await scanMedia([
      pick('broken.zip', new Blob([zip.slice(0, zip.length - 30)])),
      pick('IM9.dcm', new Blob([new Uint8Array(instance('1.2.840.5', 1))])),
    ]);
    expect(result.problems).toEqual([{ path: 'broken.zip', reason: 'damaged-zip' }]);
    expect(result.sources.map((s) => s.path)).toEqual(['IM9.dcm']);
  });
});

describe('scanMedia: documents (PDF, JPEG, PNG, MP4)', () => {
  const pdf = '%PDF-1.4\n1 0 obj << >> endobj\ntrailer << >>\n%%EOF\n';
  const jpeg = new Uint8Array([0xff, 0xd8, 0xff, 0xe0, 0, 16, 0x4a, 0x46, 0x49, 0x46, 0, 1]);

  for (const [label, options] of [
    ['deflated', {}],
    ['stored', { stored: true }],
  ] as const) {
    it(`finds documents inside a ${label} ZIP, beside its DICOM, and gives their bytes`, async () => {
      const picked = [
        pick(
          'exams.zip',
          zipWithInfoZip(
            {
              'CT/IM1': instance('1.2.840.5', 1),
              'letters/referral.pdf': pdf,
              'photos/wound.JPG': jpeg,
              'notes.txt': 'neither',
              '__MACOSX/letters/._referral.pdf': 'resource fork',
            },
            options,
          ),
        ),
      ];
      const result = await scanMedia(picked);
      expect(result.sources.map((s) => s.path)).toEqual(['exams.zip/CT/IM1']);
      expect(result.documents.map((s) => s.path).sort()).toEqual([
        'exams.zip/letters/referral.pdf',
        'exams.zip/photos/wound.JPG',
      ]);
      const documents = filesOfSources(picked, result.documents);
      const byName = new Map(documents.map((f) => [f.name, f]));
      expect(new TextDecoder().decode(await bytesOf(byName.get('exams.zip/letters/referral.pdf')!))).toBe(
        pdf,
      );
      expect(await bytesOf(byName.get('exams.zip/photos/wound.JPG')!)).toEqual(jpeg);
      expect(byName.get('exams.zip/photos/wound.JPG')!.size).toBe(jpeg.length);
    });
  }

  it('takes picked documents and those of a ZIP inside a ZIP the same way', async () => {
    const inner = await zipWithInfoZip({ 'scan.png': 'png bytes' }).arrayBuffer();
    const picked = [
      pick('letter.pdf', new Blob([pdf])),
      pick('outer.zip', zipWithInfoZip({ 'inner.zip': new Uint8Array(inner) })),
    ];
    const result = await scanMedia(picked);
    expect(result.documents.map((s) => [s.kind, s.path])).toEqual([
      ['file', 'letter.pdf'],
      ['zip-entry', 'outer.zip/inner.zip/scan.png'],
    ]);
    expect(scanError(result, 0)).toBe('uploadNoDicom');
  });

  it("leaves a disc governed by a DICOMDIR alone: a viewer's pictures are no documents", async () => {
    const dir = writeTree({ 'VIEWER/logo.png': 'icon', 'VIEWER/manual.pdf': pdf });
    temps.push(dir);
    mkdirSync(path.join(dir, 'DICOM'));
    copyFileSync(path.join(SAMPLES, 'CT_small.dcm'), path.join(dir, 'DICOM/IMG1'));
    execFileSync('dcmmkdir', ['+r', '+I', 'DICOM'], { cwd: dir, stdio: 'pipe' });
    execFileSync('zip', ['-q', '-r', 'cd.zip', '.'], { cwd: dir });
    const result = await scanMedia([pick('cd.zip', new Blob([readFileSync(path.join(dir, 'cd.zip'))]))]);
    expect(result.sources.map((s) => s.path)).toEqual(['cd.zip/DICOM/IMG1']);
    expect(result.documents).toEqual([]);
  });
});

describe('scanMedia: ZIPs inside ZIPs', () => {
  const bytesOfBlob = async (blob: Blob) => new Uint8Array(await blob.arrayBuffer());
  /** A stored ZIP (compressible, so an outer deflated ZIP really deflates it) of one instance. */
  const innerZip = (study: string, n: number) =>
    zipWithInfoZip({ [`S/IM${n}`]: instance(study, n) }, { stored: true });

  for (const [label, options, method] of [
    ['deflated', {}, ZIP_DEFLATED],
    ['stored', { stored: true }, ZIP_STORED],
  ] as const) {
    it(`opens a ZIP found by its signature inside a ${label} ZIP and uploads its entries' bytes`, async () => {
      const outer = zipWithInfoZip(
        {
          'IM1.dcm': instance('1.2.840.20', 1),
          // Named like anything: the signature, not the name, makes it an archive.
          'CD/media.bin': await bytesOfBlob(innerZip('1.2.840.20', 2)),
          'more/second.zip': await bytesOfBlob(
            zipWithInfoZip({ 'IM3.dcm': instance('1.2.840.21', 3, 'ROE^RICHARD') }),
          ),
        },
        options,
      );
      const entries = await readZipEntries(outer);
      expect(entries.find((e) => e.path === 'CD/media.bin')!.method).toBe(method);
      const picked = [pick('outer.zip', outer)];
      const result = await scanMedia(picked);
      expect(result.problems).toEqual([]);
      expect(result.sources.map((s) => s.path).sort()).toEqual([
        'outer.zip/CD/media.bin/S/IM2',
        'outer.zip/IM1.dcm',
        'outer.zip/more/second.zip/IM3.dcm',
      ]);
      // Each archive stands for its entries: three instances, no archive counted.
      expect(result.fileCount).toBe(3);
      const files = filesOfSources(picked, result.sources);
      const studies = groupStudies(result.parsed, (i) => files[i]!.size);
      expect(studies.map((s) => [s.studyUid, s.fileIndexes.length]).sort()).toEqual([
        ['1.2.840.20', 2],
        ['1.2.840.21', 1],
      ]);
      for (const [i, source] of result.sources.entries()) {
        const n = Number(/IM(\d)/.exec(source.path)![1]);
        const study = n === 3 ? '1.2.840.21' : '1.2.840.20';
        const expected = instance(study, n, n === 3 ? 'ROE^RICHARD' : 'DOE^JANE');
        expect(Buffer.from(await bytesOf(files[i]!)).equals(Buffer.from(expected))).toBe(true);
      }
    });
  }

  it(`opens ZIPs ${MAX_ZIP_DEPTH} deep and names the one nested deeper`, async () => {
    // level 1 (picked) > level 2 > level 3 > level 4: the last is refused, its instance not read.
    let archive = zipWithInfoZip({ 'IM4.dcm': instance('1.2.840.30', 4) });
    for (let level = MAX_ZIP_DEPTH; level >= 1; level--) {
      archive = zipWithInfoZip({
        [`IM${level}.dcm`]: instance('1.2.840.30', level),
        [`L${level + 1}.zip`]: await bytesOfBlob(archive),
      });
    }
    const result = await scanMedia([pick('L1.zip', archive)]);
    expect(result.sources.map((s) => s.path).sort()).toEqual([
      'L1.zip/IM1.dcm',
      'L1.zip/L2.zip/IM2.dcm',
      'L1.zip/L2.zip/L3.zip/IM3.dcm',
    ]);
    expect(result.problems).toEqual([{ path: 'L1.zip/L2.zip/L3.zip/L4.zip', reason: 'zip-too-deep' }]);
  });

  it('refuses to inflate an inner deflated ZIP above the size limit, and still slices a stored one', async () => {
    const inner = await bytesOfBlob(innerZip('1.2.840.40', 1));
    const dir = writeTree({ 'big.zip': inner, 'flat.zip': inner });
    temps.push(dir);
    // -n .zip stores flat.zip; big.zip goes through deflate (Info-ZIP would store it by its suffix).
    execFileSync('zip', ['-q', '-n', 'flat.zip', 'outer.zip', 'big.zip', 'flat.zip'], { cwd: dir });
    const outer = new Blob([readFileSync(path.join(dir, 'outer.zip'))]);
    const methods = new Map((await readZipEntries(outer)).map((e) => [e.path, e.method]));
    expect(methods).toEqual(
      new Map([
        ['big.zip', ZIP_DEFLATED],
        ['flat.zip', ZIP_STORED],
      ]),
    );
    const result = await scanMedia([pick('outer.zip', outer)], undefined, {
      maxInflatedZipBytes: inner.length - 1,
    });
    expect(result.problems).toEqual([{ path: 'outer.zip/big.zip', reason: 'zip-too-large' }]);
    expect(result.sources.map((s) => s.path)).toEqual(['outer.zip/flat.zip/S/IM1']);
  });

  it('names a damaged inner ZIP and reads the rest of the outer one', async () => {
    const inner = await bytesOfBlob(innerZip('1.2.840.50', 1));
    const outer = zipWithInfoZip({
      'cut.zip': inner.slice(0, inner.length - 30),
      'IM2.dcm': instance('1.2.840.50', 2),
    });
    const result = await scanMedia([pick('outer.zip', outer)]);
    expect(result.problems).toEqual([{ path: 'outer.zip/cut.zip', reason: 'damaged-zip' }]);
    expect(result.sources.map((s) => s.path)).toEqual(['outer.zip/IM2.dcm']);
  });
});

describe('scanMedia: media with a DICOMDIR', () => {
  /** A CD made by dcmmkdir over two pydicom samples, plus what else burners put on a disc. */
  function burnCd(): string {
    const dir = writeTree({
      'AUTORUN.INF': '[autorun]\nopen=viewer\\viewer.exe',
      'VIEWER/VIEWER.EXE': 'MZ not really',
      // A DICOM file the DICOMDIR does not list (a viewer's sample): not part of the exam.
      'VIEWER/SAMPLE.DCM': instance('1.2.840.77', 1),
    });
    mkdirSync(path.join(dir, 'DICOM'));
    copyFileSync(path.join(SAMPLES, 'CT_small.dcm'), path.join(dir, 'DICOM/IMG1'));
    copyFileSync(path.join(SAMPLES, 'MR_small.dcm'), path.join(dir, 'DICOM/IMG2'));
    execFileSync('dcmmkdir', ['+r', '+I', 'DICOM'], { cwd: dir, stdio: 'pipe' });
    temps.push(dir);
    return dir;
  }
  const ct = '1.3.6.1.4.1.5962.1.2.1.20040119072730.12322';
  const mr = '1.3.6.1.4.1.5962.1.2.4.20040826185059.5457';

  it('reads only the files the DICOMDIR lists, matching names case-insensitively', async () => {
    const picked = pickFolder(burnCd(), 'CDROM').map((p) => ({ ...p, path: p.path.toLowerCase() }));
    const result = await scanMedia(picked);
    expect(result.sources.map((s) => s.path).sort()).toEqual(['cdrom/dicom/img1', 'cdrom/dicom/img2']);
    expect(result.parsed.map((p) => p.header.studyUid).sort()).toEqual([ct, mr].sort());
    expect(result.problems).toEqual([]);
  });

  it('tells which listed files are missing and uploads the others', async () => {
    const dir = burnCd();
    rmSync(path.join(dir, 'DICOM/IMG2'));
    const result = await scanMedia(pickFolder(dir, 'CD'));
    expect(result.sources.map((s) => s.path)).toEqual(['CD/DICOM/IMG1']);
    expect(result.problems).toEqual([{ path: 'CD/DICOM/IMG2', reason: 'missing' }]);
  });

  it('reads a DICOMDIR inside a ZIP the same way', async () => {
    const dir = burnCd();
    execFileSync('zip', ['-q', '-r', 'cd.zip', '.'], { cwd: dir });
    const result = await scanMedia([pick('cd.zip', new Blob([readFileSync(path.join(dir, 'cd.zip'))]))]);
    expect(result.sources.map((s) => s.path).sort()).toEqual(['cd.zip/DICOM/IMG1', 'cd.zip/DICOM/IMG2']);
  });

  it('falls back to reading every file when the DICOMDIR cannot be read', async () => {
    const dir = burnCd();
    writeFileSync(path.join(dir, 'DICOMDIR'), new Uint8Array(256));
    const result = await scanMedia(pickFolder(dir, 'CD'));
    expect(result.sources.map((s) => s.path).sort()).toEqual([
      'CD/DICOM/IMG1',
      'CD/DICOM/IMG2',
      'CD/VIEWER/SAMPLE.DCM',
    ]);
  });

  it("reads pydicom's DICOMDIR test media: a DICOMDIR with a nested one, big endian and implicit", async () => {
    const picked = pickFolder(path.join(SAMPLES, 'dicomdirtests'), 'dicomdirtests').filter(
      (p) => !/DICOMDIR-/.test(p.path),
    );
    const result = await scanMedia(picked);
    // 31 files listed by the outer DICOMDIR, 50 by TINY_ALPHA/DICOMDIR; the READMEs are not read.
    const listed = result.sources.length;
    expect(listed).toBe(81);
    expect(result.problems).toEqual([]);
    for (const variant of ['DICOMDIR-bigEnd', 'DICOMDIR-implicit']) {
      const swapped = picked.map((p) =>
        p.path === 'dicomdirtests/DICOMDIR'
          ? { ...p, file: new File([sample(`dicomdirtests/${variant}`)], 'DICOMDIR') }
          : p,
      );
      expect((await scanMedia(swapped)).sources.length).toBe(listed);
    }
  });
});

describe('scanMedia: transfer syntaxes', () => {
  it('reads deflated, big endian and implicit files side by side', async () => {
    const result = await scanMedia(
      ['image_dfl.dcm', 'MR_small_bigendian.dcm', 'MR_small_implicit.dcm'].map((name) =>
        pick(name, new Blob([sample(name)])),
      ),
    );
    expect(result.parsed.map((p) => p.header.modality)).toEqual(['OT', 'MR', 'MR']);
  });
});
