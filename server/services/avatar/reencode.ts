import sharp from 'sharp';
import { AppError } from '../errors.ts';

// Every avatar is decoded and encoded anew, so what we serve is pixels we produced: no metadata
// (EXIF, GPS, comments), no trailing bytes of a polyglot file, one format (JPEG), one size.

export const AVATAR_SIZE = 256;
/**
 * Pixels an input may declare. sharp reads the dimensions from the header and refuses before
 * decoding, so a tiny file claiming 20000×20000 (a "pixel flood") fails at once instead of
 * taking gigabytes. 40 MP still admits any phone photo at its usual resolution.
 */
export const MAX_INPUT_PIXELS = 40_000_000;
/** Decodes at a time: a 40 MP PNG takes ~160 MB while decoding; a burst must not add those up. */
const MAX_CONCURRENT = 2;

// libvips caches operations for re-use; uploads are each seen once, so the cache only holds memory.
sharp.cache(false);

function createLimiter(max: number) {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (active < max) active++;
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      // Hand the slot straight to the next in line, so a newcomer cannot take it in between.
      const next = waiting.shift();
      if (next) next();
      else active--;
    }
  };
}

/** One decode slot for every upload that sharp reads (avatars, verification documents). */
export const withDecodeSlot = createLimiter(MAX_CONCURRENT);

function unreadable(message: string): AppError {
  return new AppError('ERROR_INPUT_VALIDATION', message, {
    field: 'fileUrl',
    details: [{ field: 'fileUrl', message }],
  });
}

/** A 256×256 JPEG of `input` (JPEG or PNG), upright, cropped to fill, without metadata. */
export function reencodeAvatar(input: Uint8Array): Promise<Buffer> {
  return withDecodeSlot(async () => {
    try {
      // failOn 'warning' (sharp's default, named here on purpose): a damaged file is refused, not guessed at.
      const image = sharp(input, { limitInputPixels: MAX_INPUT_PIXELS, failOn: 'warning' });
      const { format } = await image.metadata();
      if (format !== 'jpeg' && format !== 'png') throw new Error(`unexpected format ${format}`);
      return await image
        .rotate() // applies the EXIF orientation, which is about to be dropped with the rest
        .resize(AVATAR_SIZE, AVATAR_SIZE, { fit: 'cover' })
        .flatten({ background: '#ffffff' }) // JPEG has no alpha; transparent PNGs go on white, not black
        .jpeg({ quality: 85, mozjpeg: true })
        .toBuffer(); // without keepMetadata()/withMetadata() sharp writes no EXIF, XMP or ICC
    } catch (error) {
      if (error instanceof Error && /pixel limit/i.test(error.message)) {
        throw unreadable(`This image is too large: at most ${MAX_INPUT_PIXELS / 1_000_000} megapixels.`);
      }
      throw unreadable('This image could not be read. Choose another JPEG or PNG file.');
    }
  });
}
