import { describe, expect, it } from 'vitest';
import { createCodeVault, normalizeGiftCode } from '../../server/services/gift-cards/vault.ts';

// The sealing of gift codes (decision 109): what a sealed code gives away, and what opens it.

describe('gift code vault', () => {
  const vault = createCodeVault('11'.repeat(32));

  it('seals a code that only the same key and card id open, differently each time', () => {
    const sealed = vault.seal('AB12-CD34-EF56', 'gcd_A');
    expect(sealed).toMatch(/^v1\.[\w-]+\.[\w-]+\.[\w-]+$/);
    expect(sealed).not.toContain('AB12');
    expect(vault.open(sealed, 'gcd_A')).toBe('AB12-CD34-EF56');
    expect(vault.seal('AB12-CD34-EF56', 'gcd_A')).not.toBe(sealed);
    // Copied onto another card, or opened under another key: refused.
    expect(() => vault.open(sealed, 'gcd_B')).toThrow();
    expect(() => createCodeVault('22'.repeat(32)).open(sealed, 'gcd_A')).toThrow();
  });

  it('refuses a sealed code that was tampered with', () => {
    const [version, iv, tag, data] = vault.seal('CODE-9999', 'gcd_A').split('.') as [string, string, string, string];
    const flipped = `${data.slice(0, -1)}${data.endsWith('A') ? 'B' : 'A'}`;
    expect(() => vault.open([version, iv, tag, flipped].join('.'), 'gcd_A')).toThrow();
    expect(() => vault.open('plain text', 'gcd_A')).toThrow();
  });

  it('fingerprints the normalised code with its own key', () => {
    expect(normalizeGiftCode(' ab12-cd34 ef56 ')).toBe('AB12CD34EF56');
    expect(vault.fingerprint('ab12-cd34')).toBe(vault.fingerprint('AB12 CD34'));
    expect(vault.fingerprint('AB12CD34')).not.toBe(vault.fingerprint('AB12CD35'));
    expect(createCodeVault('22'.repeat(32)).fingerprint('AB12CD34')).not.toBe(vault.fingerprint('AB12CD34'));
    expect(vault.fingerprint('AB12CD34')).not.toContain('AB12');
  });

  it('refuses a key that is not 32 bytes', () => {
    expect(() => createCodeVault('abcd')).toThrow(/32 bytes/);
  });
});
