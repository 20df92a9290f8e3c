import { ATTACHMENT_TYPES, MAX_ATTACHMENT_NAME } from '@imaging-inbox/contract';
import { invalidField } from '../../domain/errors.js';

/**
 * Attachment type checks: the name's extension must be on the allow-list, and the first bytes
 * must look like that type (a renamed executable or HTML page is refused, so a browser never gets
 * active content under a harmless name).
 */
const MAGIC: Record<string, (head: Buffer) => boolean> = {
  pdf: (h) => h.subarray(0, 5).toString('latin1') === '%PDF-',
  png: (h) => h.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])),
  jpg: (h) => h[0] === 0xff && h[1] === 0xd8 && h[2] === 0xff,
  gif: (h) => /^GIF8[79]a$/.test(h.subarray(0, 6).toString('latin1')),
  rtf: (h) => h.subarray(0, 5).toString('latin1') === '{\\rtf',
  // Office Open XML and OpenDocument are ZIP containers; the old Office formats are OLE2 files.
  docx: (h) => h.subarray(0, 4).equals(Buffer.from([0x50, 0x4b, 0x03, 0x04])),
  doc: (h) => h.subarray(0, 8).equals(Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1])),
  txt: (h) => !h.includes(0) && !/^\s*<(!doctype|html|script|svg)/i.test(h.toString('utf8')),
};
MAGIC['jpeg'] = MAGIC['jpg']!;
MAGIC['xlsx'] = MAGIC['docx']!;
MAGIC['odt'] = MAGIC['docx']!;
MAGIC['xls'] = MAGIC['doc']!;
MAGIC['csv'] = MAGIC['txt']!;

/** A file name safe to store and show: no path, no control characters, at most 200 characters. */
export function cleanFilename(raw: string): string {
  const base = raw.split(/[\\/]/).pop() ?? '';
  // eslint-disable-next-line no-control-regex
  const name = base.replace(/[\u0000-\u001f\u007f"]/g, '').trim();
  if (!name || name === '.' || name === '..') throw invalidField('file', 'the file needs a name');
  if (name.length > MAX_ATTACHMENT_NAME)
    throw invalidField('file', `name longer than ${MAX_ATTACHMENT_NAME}`);
  return name;
}

/** The type of an attachment from its name and first bytes; refuses what is not allowed. */
export function attachmentType(filename: string, head: Buffer): { extension: string; mime: string } {
  const extension = /\.([A-Za-z0-9]{1,5})$/.exec(filename)?.[1]?.toLowerCase() ?? '';
  const type = ATTACHMENT_TYPES[extension];
  if (!type) throw invalidField('file', 'type not allowed: PDF, images, text and office documents only');
  if (!MAGIC[extension]?.(head)) throw invalidField('file', `the content is not a ${extension} file`);
  return { extension, mime: type.mime };
}
