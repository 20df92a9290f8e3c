import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** PEM files made with openssl for one test file: a CA and certificates it signed, and a stranger CA's. */
export interface TestPki {
  dir: string;
  /** Path of `<name>.pem` (certificate) or `<name>.key` (private key). */
  pem(name: string): string;
  key(name: string): string;
  /** The text of a file of the PKI. */
  text(file: string): string;
  remove(): void;
}

/**
 * Makes a CA `ca` with `server` and `client` certificates (for 127.0.0.1 and localhost), and a second
 * CA `otherca` with a `stranger` certificate: what a peer the first CA does not know presents.
 * RSA 2048, valid two days, no passphrase.
 */
export async function makeTestPki(): Promise<TestPki> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'inbox-pki-'));
  const at = (file: string) => path.join(dir, file);
  const ca = (name: string) =>
    run('openssl', [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.pem`),
      '-days',
      '2',
      '-subj',
      `/CN=Test ${name}`,
    ]);
  const signed = async (name: string, by: string) => {
    await run('openssl', [
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-keyout',
      at(`${name}.key`),
      '-out',
      at(`${name}.csr`),
      '-subj',
      `/CN=${name}`,
    ]);
    fs.writeFileSync(at(`${name}.ext`), 'subjectAltName=IP:127.0.0.1,DNS:localhost\n');
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      at(`${name}.csr`),
      '-CA',
      at(`${by}.pem`),
      '-CAkey',
      at(`${by}.key`),
      '-CAcreateserial',
      '-out',
      at(`${name}.pem`),
      '-days',
      '2',
      '-extfile',
      at(`${name}.ext`),
    ]);
  };
  await Promise.all([ca('ca'), ca('otherca')]);
  await Promise.all([signed('server', 'ca'), signed('client', 'ca'), signed('stranger', 'otherca')]);
  return {
    dir,
    pem: (name) => at(`${name}.pem`),
    key: (name) => at(`${name}.key`),
    text: (file) => fs.readFileSync(at(file), 'utf8'),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}
