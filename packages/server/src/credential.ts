import { MemError } from '@mem/core';

/**
 * The credential of a request: `Authorization: Bearer <token>`, `x-api-key` or `apikey`
 * (seed 001). None: undefined. Several that disagree: UNAUTHENTICATED rather than a guess
 * at which one was meant.
 */
export function credentialOf(header: (name: string) => string | undefined): string | undefined {
  const found = new Set<string>();
  const authorization = header('authorization');
  if (authorization !== undefined) {
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw new MemError('UNAUTHENTICATED', 'missing or invalid token');
    found.add(match[1]!);
  }
  for (const name of ['x-api-key', 'apikey']) {
    const value = header(name)?.trim();
    if (value !== undefined && value !== '') found.add(value);
  }
  if (found.size > 1) throw new MemError('UNAUTHENTICATED', 'missing or invalid token');
  return found.values().next().value;
}
