import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/** Test archives made by real tools: Info-ZIP's `zip` and Python's zipfile (for ZIP64). */

export type TreeFiles = Record<string, Uint8Array | string>;

/** Writes `files` (relative paths) under a fresh temp folder; returns it. */
export function writeTree(files: TreeFiles): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'imaging-inbox-media-'));
  for (const [name, content] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), content);
  }
  return dir;
}

const toBlob = (bytes: Uint8Array) => new Blob([new Uint8Array(bytes)]);

/**
 * A ZIP of `files` by Info-ZIP. `stored` keeps entries uncompressed (-0); `streamed` writes to a
 * pipe, so every entry carries a data descriptor (sizes after the data, zeros in the local header).
 */
export function zipWithInfoZip(
  files: TreeFiles,
  options: { stored?: boolean; streamed?: boolean } = {},
): Blob {
  const dir = writeTree(files);
  const flags = ['-q', '-r', ...(options.stored ? ['-0'] : [])].join(' ');
  try {
    const command = options.streamed
      ? `zip ${flags} - . | cat`
      : `zip ${flags} '${dir}.zip' . && cat '${dir}.zip'`;
    return toBlob(execFileSync('sh', ['-c', command], { cwd: dir, maxBuffer: 1 << 30 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
    rmSync(`${dir}.zip`, { force: true });
  }
}

/**
 * A ZIP64 archive by Python's zipfile with its limits lowered to zero, so every size and offset
 * goes into the ZIP64 extra field and the end record is the ZIP64 one, as for a > 4 GB archive.
 */
export function zip64WithPython(files: TreeFiles): Blob {
  const dir = writeTree(files);
  const script = [
    'import os, sys, zipfile',
    'zipfile.ZIP64_LIMIT = 0',
    'zipfile.ZIP_FILECOUNT_LIMIT = 0',
    "with zipfile.ZipFile(sys.stdout.buffer, 'w', zipfile.ZIP_DEFLATED) as z:",
    "    for root, _, names in sorted(os.walk('.')):",
    '        for n in sorted(names):',
    '            p = os.path.join(root, n)',
    "            z.write(p, os.path.relpath(p, '.'))",
  ].join('\n');
  try {
    return toBlob(execFileSync('python3', ['-c', script], { cwd: dir, maxBuffer: 1 << 30 }));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** A stored archive of `count` tiny entries by Python's zipfile (ZIP64 end records past 65,535). */
export function manyEntriesWithPython(count: number): Blob {
  const script = [
    'import sys, zipfile',
    "with zipfile.ZipFile(sys.stdout.buffer, 'w', zipfile.ZIP_STORED) as z:",
    `    for i in range(${count}):`,
    "        z.writestr(f'F/{i:06d}', b'x')",
  ].join('\n');
  return toBlob(execFileSync('python3', ['-c', script], { maxBuffer: 1 << 30 }));
}
