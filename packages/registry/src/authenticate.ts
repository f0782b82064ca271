import type { Capability } from '@mem/core';
import type { ControlStore } from '@mem/projector-sqlite';
import { unauthenticated, type Caller, type Surface } from './caller.js';
import { parseCredential, secretMatches } from './credentials.js';

/**
 * Resolves a presented credential into this request's caller, from the control store as it
 * is now: the token must exist, match, be unrevoked and unexpired; its reach is its projects
 * (or `*`) intersected with its principal's current membership. So a revocation or a removed
 * membership takes effect on the very next request, with no sweep. Every failure is the same
 * UNAUTHENTICATED, saying nothing about which check failed.
 */
export function authenticate(
  store: ControlStore,
  credential: string | undefined,
  surface: Surface,
  now: Date,
): Caller {
  if (credential === undefined || credential === '') throw unauthenticated();
  const parsed = parseCredential(credential);
  if (!parsed) throw unauthenticated();
  const token = store.token(parsed.tokenId);
  if (!token || !secretMatches(parsed.secret, token.secret_sha256)) throw unauthenticated();
  if (token.revoked_seq !== null) throw unauthenticated();
  if (token.expires_at !== null && Date.parse(token.expires_at) <= now.getTime())
    throw unauthenticated();
  const members = store.membershipsOf(token.principal);
  const reach =
    token.projects === '*'
      ? members
      : members.filter((project) => (token.projects as string[]).includes(project));
  return {
    kind: 'token',
    surface,
    principal: token.principal,
    tokenId: token.token_id,
    label: token.label,
    reach,
    capabilities: new Set(token.capabilities as Capability[]),
  };
}
