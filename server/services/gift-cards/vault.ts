import { createCipheriv, createDecipheriv, createHmac, hkdfSync, randomBytes } from 'node:crypto';

// Gift codes are secrets (issue 18): sealed with AES-256-GCM before they reach the database, the
// card's public id bound in as associated data, so a sealed code copied onto another row does not
// open. The configured key (GIFT_CODE_KEY, 32 bytes) is split with HKDF into the sealing key and
// the key of the fingerprint that finds a code saved twice without opening any.

/** The development key: anyone who reads this file can open its codes, so start-up refuses it with DEMO_DATA=off. */
export const DEVELOPMENT_GIFT_CODE_KEY = '6769667420636f64657320696e20646576656c6f706d656e74206f6e6c792121';

const VERSION = 'v1';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Upper case, without spaces and dashes: "ab12-cd34 " and "AB12CD34" are one code. */
export function normalizeGiftCode(code: string): string {
  return code.replace(/[\s-]+/g, '').toUpperCase();
}

export interface CodeVault {
  /** The code sealed for the card `cardPublicId`. */
  seal(code: string, cardPublicId: string): string;
  /** The code of a sealed value; throws when it was not sealed for this card under this key. */
  open(sealed: string, cardPublicId: string): string;
  /** A keyed hash of the normalised code (hex): equal for the same code, useless without the key. */
  fingerprint(code: string): string;
}

export function createCodeVault(hexKey: string = DEVELOPMENT_GIFT_CODE_KEY): CodeVault {
  const master = Buffer.from(hexKey, 'hex');
  if (master.length !== 32) throw new Error('GIFT_CODE_KEY must be 32 bytes as 64 hexadecimal characters');
  const derive = (info: string) => Buffer.from(hkdfSync('sha256', master, Buffer.alloc(0), info, 32));
  const sealKey = derive('coinfair gift code seal');
  const fingerprintKey = derive('coinfair gift code fingerprint');
  return {
    seal(code, cardPublicId) {
      const iv = randomBytes(IV_BYTES);
      const cipher = createCipheriv('aes-256-gcm', sealKey, iv, { authTagLength: TAG_BYTES });
      cipher.setAAD(Buffer.from(cardPublicId, 'utf8'));
      const sealed = Buffer.concat([cipher.update(code, 'utf8'), cipher.final()]);
      return [VERSION, iv, cipher.getAuthTag(), sealed]
        .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
        .join('.');
    },
    open(sealed, cardPublicId) {
      const [version, iv, tag, data] = sealed.split('.');
      if (version !== VERSION || !iv || !tag || data === undefined) throw new Error('not a sealed gift code');
      const decipher = createDecipheriv('aes-256-gcm', sealKey, Buffer.from(iv, 'base64url'), {
        authTagLength: TAG_BYTES,
      });
      decipher.setAAD(Buffer.from(cardPublicId, 'utf8'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(data, 'base64url')), decipher.final()]).toString('utf8');
    },
    fingerprint: (code) => createHmac('sha256', fingerprintKey).update(normalizeGiftCode(code)).digest('hex'),
  };
}
