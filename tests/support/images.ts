import { crc32 } from 'node:zlib';
import sharp from 'sharp';

// Images for upload tests, made by sharp itself: no binary fixtures in the repository.

/** A tiny PNG whose header claims `width`×`height`: a decoder that trusts it allocates gigabytes. */
export async function pixelFlood(width: number, height: number): Promise<Buffer> {
  const png = Buffer.from(
    await sharp({ create: { width: 1, height: 1, channels: 3, background: '#fff' } })
      .png()
      .toBuffer(),
  );
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return png;
}
