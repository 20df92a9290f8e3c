import { createHmac, randomBytes } from 'node:crypto';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';

/**
 * Each account's de-identification secret (decision 0067): HMAC-SHA-256 of the account id under the
 * installation's master key, which lives in a file outside the database. Nothing stored in the
 * database, with or without the dump of every table, recomputes a pseudonym; the same account always
 * gets the same secret (so the same patient the same pseudonym), another account an unrelated one.
 */
export class DeidentificationSecrets {
  private master: Promise<Buffer> | undefined;

  constructor(private readonly keyFile: string) {}

  async forAccount(accountId: string): Promise<Uint8Array> {
    const master = await this.masterKey();
    return createHmac('sha256', master)
      .update('imaging-inbox/deidentification/account\0')
      .update(accountId)
      .digest();
  }

  private masterKey(): Promise<Buffer> {
    this.master ??= this.loadOrCreate().catch((error: unknown) => {
      this.master = undefined; // a later call tries again (a volume mounted late)
      throw error;
    });
    return this.master;
  }

  /**
   * Reads the key file, or makes it (32 random bytes, hex, mode 0600) when it does not exist. The
   * file is created exclusively: two processes starting together keep whichever was written first.
   */
  private async loadOrCreate(): Promise<Buffer> {
    try {
      return parseKey(await readFile(this.keyFile, 'utf8'), this.keyFile);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
    await mkdir(path.dirname(this.keyFile), { recursive: true });
    try {
      await writeFile(this.keyFile, `${randomBytes(32).toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    return parseKey(await readFile(this.keyFile, 'utf8'), this.keyFile);
  }
}

function parseKey(text: string, file: string): Buffer {
  const hex = text.trim();
  if (!/^[0-9a-fA-F]{64,}$/.test(hex))
    throw new Error(`${file}: the de-identification key must be at least 32 bytes written as hex`);
  return Buffer.from(hex, 'hex');
}
