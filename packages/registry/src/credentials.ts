import { randomBytes, timingSafeEqual } from 'node:crypto';
import { sha256Hex } from '@mem/core';

/**
 * A token as handed out: `mem_<id>_<secret>`. The id (16 hex) is public, so a token can be
 * named in a listing or a revocation without its secret; the secret (43 base64url characters,
 * 256 bits) exists in plaintext once, at mint. Only sha256(secret) is logged.
 */
export interface MintedSecret {
  tokenId: string;
  /** The whole bearer string: `mem_<id>_<secret>`. */
  plaintext: string;
  secretSha256: string;
}

const TOKEN = /^mem_([0-9a-f]{16})_([A-Za-z0-9_-]{43})$/;

/** A fresh token id and secret. */
export function mintSecret(): MintedSecret {
  const tokenId = randomBytes(8).toString('hex');
  const secret = randomBytes(32).toString('base64url');
  return { tokenId, plaintext: `mem_${tokenId}_${secret}`, secretSha256: sha256Hex(secret) };
}

/** Splits a presented credential into id and secret; undefined when it is not shaped like a token. */
export function parseCredential(
  credential: string,
): { tokenId: string; secret: string } | undefined {
  const match = TOKEN.exec(credential);
  return match ? { tokenId: match[1]!, secret: match[2]! } : undefined;
}

/** Whether `secret` hashes to `expectedSha256`, compared in constant time. */
export function secretMatches(secret: string, expectedSha256: string): boolean {
  const actual = Buffer.from(sha256Hex(secret), 'hex');
  const expected = Buffer.from(expectedSha256, 'hex');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
