// What an upload is, from its first bytes: the file name and the declared Content-Type are the
// sender's claims, the magic bytes are the content. Only JPEG and PNG are accepted (spec section
// 5: "jpeg, png or jpg"); GIF, SVG, HTML and everything else are refused before they are stored.

export type ImageType = 'jpeg' | 'png';

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
/** SOI followed by the first marker's 0xFF. */
const JPEG_SIGNATURE = [0xff, 0xd8, 0xff];

function startsWith(bytes: Uint8Array, signature: readonly number[]): boolean {
  return bytes.length >= signature.length && signature.every((byte, i) => bytes[i] === byte);
}

export function sniffImageType(bytes: Uint8Array): ImageType | null {
  if (startsWith(bytes, JPEG_SIGNATURE)) return 'jpeg';
  if (startsWith(bytes, PNG_SIGNATURE)) return 'png';
  return null;
}
