import sharp from 'sharp';
import type { DocumentContentType } from '../../../db/schema/index.ts';
import { DOCUMENT_MAX_BYTES } from '../../../src/lib/shared/verification-rules.ts';
import { MAX_INPUT_PIXELS, withDecodeSlot } from '../avatar/reencode.ts';
import { AppError } from '../errors.ts';
import { cleanPdf, PDF_MAX_PAGES, PdfRefused } from './pdf-clean.ts';

// What an uploaded document is and what we keep of it. The name and declared type are the
// sender's claims; the bytes decide. A file that more than one reader would accept (a JPEG with a
// PDF inside its first kilobyte, a PDF with a ZIP archive on its end) is refused outright: the
// moderator who opens it must see what the checks saw. Images are decoded and encoded anew
// (no metadata, no trailing bytes); PDFs are rebuilt from their pages into a new file without
// scripts, actions, links, forms or attached files (pdf-clean.ts), and are only ever served as
// attachments (routes/verification.ts).

export type DocumentType = 'jpeg' | 'png' | 'pdf';

/** The longest side kept: a passport page stays legible, a 48 MP photo does not fill the disk. */
export const DOCUMENT_MAX_SIDE = 2400;
/** Smaller than this cannot be read by a moderator: refused rather than approved by mistake. */
export const DOCUMENT_MIN_SIDE = 300;

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];
/** PDF readers look for the header anywhere in the first kilobyte; we require it at offset 0. */
const PDF_HEADER = /^%PDF-(?:1\.[0-7]|2\.0)/;
const READER_WINDOW = 1024;

function startsWith(bytes: Uint8Array, signature: readonly number[], at = 0): boolean {
  return bytes.length >= at + signature.length && signature.every((byte, i) => bytes[at + i] === byte);
}

const latin1 = (bytes: Uint8Array, start = 0, end = bytes.length) =>
  Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('latin1', start, end);

/** A ZIP's end-of-central-directory record that ends exactly at the end of the file, as readers find it. */
function hasZipDirectory(bytes: Uint8Array): boolean {
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const from = Math.max(0, view.length - 22 - 0xffff);
  for (let i = view.length - 22; i >= from; i--) {
    if (view[i] === 0x50 && view[i + 1] === 0x4b && view[i + 2] === 0x05 && view[i + 3] === 0x06) {
      if (i + 22 + view.readUInt16LE(i + 20) === view.length) return true;
    }
  }
  return false;
}

/** Every format some reader would take these bytes for. */
export function readableAs(bytes: Uint8Array): Set<string> {
  const found = new Set<string>();
  const head = latin1(bytes, 0, Math.min(bytes.length, READER_WINDOW));
  if (startsWith(bytes, JPEG_SIGNATURE)) found.add('jpeg');
  if (startsWith(bytes, PNG_SIGNATURE)) found.add('png');
  if (head.includes('%PDF-')) found.add('pdf');
  if (/^GIF8[79]a/.test(head)) found.add('gif');
  if (startsWith(bytes, [0x50, 0x4b, 0x03, 0x04]) || hasZipDirectory(bytes)) found.add('zip');
  // What a browser's sniffer takes for markup.
  if (/<(?:!doctype|html|head|body|script|svg|iframe)[\s>/]/i.test(head)) found.add('html');
  return found;
}

function invalid(message: string, key: string, params?: Record<string, string | number>): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, {
    field: 'file',
    key,
    ...(params ? { params } : {}),
    details: [{ field: 'file', message, key, ...(params ? { params } : {}) }],
  });
}

export const wrongType = () => invalid('Choose a JPEG, PNG or PDF file.', 'verification_file_type');

/** The one format of an acceptable document, or the reason it is not one. */
export function documentTypeOf(bytes: Uint8Array): DocumentType {
  const formats = readableAs(bytes);
  const primary: DocumentType | null = startsWith(bytes, JPEG_SIGNATURE)
    ? 'jpeg'
    : startsWith(bytes, PNG_SIGNATURE)
      ? 'png'
      : PDF_HEADER.test(latin1(bytes, 0, Math.min(bytes.length, 8)))
        ? 'pdf'
        : null;
  if (!primary) throw wrongType();
  if (formats.size > 1) {
    throw invalid(
      'This file can be read as more than one type of file. Export the document again as a plain JPEG, PNG or PDF.',
      'verification_file_polyglot',
    );
  }
  return primary;
}

/** The clean rebuild of an uploaded PDF, or the reason there is none. */
async function cleanedPdf(bytes: Uint8Array): Promise<Uint8Array> {
  const damaged = () =>
    invalid('This PDF is incomplete or damaged. Save it again and upload it.', 'verification_pdf_damaged');
  // A reader (and pdf-lib) shows what it can of a cut-off file; an upload that stopped short is refused.
  if (!latin1(bytes, Math.max(0, bytes.length - READER_WINDOW)).includes('%%EOF')) throw damaged();
  try {
    // A decode slot, as for images: a burst of uploads does not add up their parsing memory.
    return await withDecodeSlot(() => cleanPdf(bytes));
  } catch (error) {
    if (!(error instanceof PdfRefused)) throw error;
    switch (error.reason) {
      case 'damaged':
        throw damaged();
      case 'encrypted':
        throw invalid(
          'This PDF is protected by a password. Save or print it again without one, or upload a photo instead.',
          'verification_pdf_encrypted',
        );
      case 'pages':
        throw invalid(`This PDF has too many pages: at most ${PDF_MAX_PAGES}.`, 'verification_pdf_pages', {
          pages: PDF_MAX_PAGES,
        });
      case 'active':
        throw invalid(
          'This PDF contains scripts, attachments, forms or a password. Print it to a new PDF, or upload a photo instead.',
          'verification_pdf_active',
        );
    }
  }
}

/** A JPEG of `input`, upright, at most DOCUMENT_MAX_SIDE on its longest side, without metadata. */
function reencodeDocument(input: Uint8Array, type: 'jpeg' | 'png'): Promise<Buffer> {
  return withDecodeSlot(async () => {
    try {
      // failOn 'warning': a damaged file is refused, not guessed at (as for avatars).
      const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' });
      const { format, width = 0, height = 0 } = await image.metadata();
      if (format !== type) throw new Error(`signature of ${type}, content of ${format}`);
      if (Math.min(width, height) < DOCUMENT_MIN_SIDE) {
        throw invalid(
          `This image is too small to read: at least ${DOCUMENT_MIN_SIDE} pixels on each side.`,
          'verification_image_small',
          { pixels: DOCUMENT_MIN_SIDE },
        );
      }
      return await image
        .rotate() // the EXIF orientation, before the rest of the metadata is dropped
        .resize(DOCUMENT_MAX_SIDE, DOCUMENT_MAX_SIDE, { fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 88, mozjpeg: true })
        .toBuffer();
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof Error && /pixel limit/i.test(error.message)) {
        throw invalid(
          `This image is too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`,
          'verification_image_pixels',
          { megapixels: MAX_INPUT_PIXELS / 1_000_000 },
        );
      }
      throw invalid(
        'This image could not be read. Choose another JPEG, PNG or PDF file.',
        'verification_image_unreadable',
      );
    }
  });
}

export const tooLarge = () =>
  new AppError('PAYLOAD_TOO_LARGE', `The file is too large: at most ${DOCUMENT_MAX_BYTES / 1024 / 1024} MB.`, {
    field: 'file',
    key: 'verification_file_size',
    params: { megabytes: DOCUMENT_MAX_BYTES / 1024 / 1024 },
  });

/** What is stored for an upload: refused with a `file` field error unless every check passes. */
export async function processDocument(
  bytes: Uint8Array,
): Promise<{ contentType: DocumentContentType; bytes: Uint8Array }> {
  if (bytes.length > DOCUMENT_MAX_BYTES) throw tooLarge();
  if (bytes.length === 0) throw wrongType();
  const type = documentTypeOf(bytes);
  if (type === 'pdf') {
    const cleaned = await cleanedPdf(bytes);
    documentTypeOf(cleaned); // what is stored reads as a PDF and nothing else, as the upload had to
    return { contentType: 'application/pdf', bytes: cleaned };
  }
  return { contentType: 'image/jpeg', bytes: await reencodeDocument(bytes, type) };
}
