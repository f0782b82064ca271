import { MemError, type Capability, type Writer } from '@mem/core';

/** The surface a call came in through: it names the writer kind of what the call appends. */
export type Surface = 'http' | 'mcp' | 'cli';

const WRITER_KIND: Record<Surface, string> = { http: 'api', mcp: 'mcp', cli: 'cli' };

/**
 * Who is calling, resolved for this one request: a token's principal and label, the projects
 * it reaches now (token projects ∩ current membership), its grants. The local CLI is the root
 * of trust (it can write the data root anyway): it reaches everything and holds every grant.
 */
export interface Caller {
  readonly kind: 'token' | 'local' | 'anonymous';
  readonly surface: Surface;
  readonly principal: string | null;
  readonly tokenId: string | null;
  readonly label: string | null;
  /** `all` for the local caller; otherwise the projects reachable now, sorted. */
  readonly reach: 'all' | readonly string[];
  readonly capabilities: ReadonlySet<Capability>;
}

/** True when the caller may read and write `project`. */
export function canReach(caller: Caller, project: string): boolean {
  return caller.reach === 'all' || caller.reach.includes(project);
}

/** FORBIDDEN naming the project, unless the caller reaches it. Says nothing about whether it exists. */
export function requireReach(caller: Caller, project: string): void {
  if (!canReach(caller, project)) {
    throw new MemError(
      'FORBIDDEN',
      `this token does not reach project ${JSON.stringify(project)}`,
      { project },
    );
  }
}

/** CAPABILITY_REQUIRED naming the grant, unless the caller holds it. */
export function requireCapability(caller: Caller, capability: Capability): void {
  if (!caller.capabilities.has(capability)) {
    throw new MemError('CAPABILITY_REQUIRED', `this token lacks the ${capability} capability`, {
      capability,
    });
  }
}

/** UNAUTHENTICATED unless the caller holds a credential (or is the local root of trust). */
export function requireAuthenticated(caller: Caller): void {
  if (caller.kind === 'anonymous') throw unauthenticated();
}

/** The one 401 error: no hint which of missing, unknown, revoked, expired or wrong it was. */
export function unauthenticated(): MemError {
  return new MemError('UNAUTHENTICATED', 'missing or invalid token');
}

/** The envelope writer of what this caller appends: actor and token label, never a secret. */
export function writerOf(caller: Caller): Writer {
  return {
    kind: WRITER_KIND[caller.surface],
    ...(caller.principal !== null ? { principal: caller.principal } : {}),
    ...(caller.label !== null ? { token: caller.label } : {}),
  };
}

/** The local root of trust: whoever can write the data root. */
export function localCaller(principal: string, surface: Surface = 'cli'): Caller {
  return {
    kind: 'local',
    surface,
    principal,
    tokenId: null,
    label: null,
    reach: 'all',
    capabilities: new Set<Capability>(['admin', 'may_write_rules']),
  };
}

/** No credential: only open operations accept it. */
export function anonymousCaller(surface: Surface): Caller {
  return {
    kind: 'anonymous',
    surface,
    principal: null,
    tokenId: null,
    label: null,
    reach: [],
    capabilities: new Set(),
  };
}
