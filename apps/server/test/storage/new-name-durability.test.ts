import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DurableWriter } from '../../src/storage/durable-writer.js';
import { FileBlobStore } from '../../src/storage/file-blob-store.js';
import { fileSyncPersistsItsName, fileSystemTypeOf } from '../../src/storage/new-name-durability.js';

// Lines in the format of proc(5) /proc/self/mountinfo.
const MOUNTS = [
  '22 1 254:0 / / rw,relatime shared:1 - ext4 /dev/vda rw,discard',
  '23 22 0:21 / /proc rw,nosuid shared:2 - proc proc rw',
  '30 22 0:25 / /srv/pacs rw,relatime shared:9 - nfs4 filer:/pacs rw,vers=4.2',
  '31 30 254:16 / /srv/pacs/local rw,relatime shared:10 - xfs /dev/vdb rw',
  '32 22 0:26 / /mnt/with\\040space rw shared:11 - btrfs /dev/vdc rw',
  '33 22 254:32 / /data rw shared:12 - ext3 /dev/vdd rw',
  '34 33 254:48 / /data rw shared:13 - ext4 /dev/vde rw',
].join('\n');

describe('which file system holds a path', () => {
  it('takes the longest mount point that contains the path', () => {
    expect(fileSystemTypeOf('/var/lib/inbox/blobs', MOUNTS)).toBe('ext4');
    expect(fileSystemTypeOf('/srv/pacs/blobs', MOUNTS)).toBe('nfs4');
    expect(fileSystemTypeOf('/srv/pacs/local/blobs', MOUNTS)).toBe('xfs');
    expect(fileSystemTypeOf('/srv/pacs', MOUNTS)).toBe('nfs4');
  });

  it('does not take a mount point that is only a prefix of a name', () => {
    expect(fileSystemTypeOf('/srv/pacs-archive/blobs', MOUNTS)).toBe('ext4');
  });

  it('decodes octal escapes in mount points', () => {
    expect(fileSystemTypeOf('/mnt/with space/blobs', MOUNTS)).toBe('btrfs');
  });

  it('takes the last of several mounts at one point (it hides the others)', () => {
    expect(fileSystemTypeOf('/data/blobs', MOUNTS)).toBe('ext4');
  });

  it('answers nothing for text that is not mountinfo', () => {
    expect(fileSystemTypeOf('/data', 'not a mount table\n\n')).toBeUndefined();
  });
});

describe('whether a new file’s sync makes its name durable', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
  });
  function tempDir(): string {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-names-'));
    dirs.push(dir);
    return dir;
  }

  it('agrees with findmnt about this machine’s temp directory', () => {
    const dir = tempDir();
    const type = execFileSync('findmnt', ['-n', '-o', 'FSTYPE', '--target', dir], {
      encoding: 'utf8',
    }).trim();
    expect(fileSyncPersistsItsName(dir)).toBe(['ext4', 'xfs', 'btrfs'].includes(type));
  });

  it('keeps directory syncs on NFS, ext3, unknown systems and where the table is unreadable', () => {
    const dir = tempDir();
    const real = fs.realpathSync(dir);
    const on = (type: string) =>
      `22 1 254:0 / / rw - ${type} /dev/x rw\n40 22 0:1 / ${real} rw - ${type} /dev/y rw`;
    expect(fileSyncPersistsItsName(dir, on('ext4'))).toBe(true);
    expect(fileSyncPersistsItsName(dir, on('xfs'))).toBe(true);
    expect(fileSyncPersistsItsName(dir, on('nfs4'))).toBe(false);
    expect(fileSyncPersistsItsName(dir, on('ext3'))).toBe(false);
    expect(fileSyncPersistsItsName(dir, on('fuse.sshfs'))).toBe(false);
    expect(fileSyncPersistsItsName(dir, null)).toBe(false);
    expect(fileSyncPersistsItsName(path.join(dir, 'missing'), on('ext4'))).toBe(false);
  });

  it('the blob store decides by the file system of its own root', async () => {
    const dir = tempDir();
    const store = new FileBlobStore(dir);
    try {
      expect(store.syncsDirectories).toBe(!fileSyncPersistsItsName(path.join(dir, 'blobs')));
    } finally {
      await store.close();
    }
  });

  it('a writer that skips directory syncs still creates the directories, the file and refuses a second one', async () => {
    const root = tempDir();
    const writer = new DurableWriter(root, false);
    try {
      const file = path.join(root, 'ab', 'cd', 'content.dcm');
      await writer.write(file, Buffer.from('first'), false);
      expect(fs.readFileSync(file, 'utf8')).toBe('first');
      await expect(writer.write(file, Buffer.from('second'), true)).rejects.toMatchObject({ code: 'EEXIST' });
      expect(fs.readFileSync(file, 'utf8')).toBe('first');
    } finally {
      await writer.close();
    }
  });
});
