import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '@mem/core';
import { mintSecret, parseCredential, secretMatches } from './credentials.js';

describe('token credentials', () => {
  it('mints mem_<id>_<secret>: the id visible, only the sha256 of the secret kept', () => {
    const minted = mintSecret();
    expect(minted.plaintext).toMatch(/^mem_[0-9a-f]{16}_[A-Za-z0-9_-]{43}$/);
    const parsed = parseCredential(minted.plaintext)!;
    expect(parsed.tokenId).toBe(minted.tokenId);
    expect(sha256Hex(parsed.secret)).toBe(minted.secretSha256);
    expect(secretMatches(parsed.secret, minted.secretSha256)).toBe(true);
    expect(mintSecret().plaintext).not.toBe(minted.plaintext);
  });

  it('parses nothing that is not shaped like a token, and never throws', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = parseCredential(text);
        if (parsed) expect(`mem_${parsed.tokenId}_${parsed.secret}`).toBe(text);
      }),
    );
    expect(parseCredential('mem_0123456789abcdef_short')).toBeUndefined();
  });

  it('a wrong secret does not match', () => {
    const minted = mintSecret();
    expect(secretMatches('x'.repeat(43), minted.secretSha256)).toBe(false);
  });
});
