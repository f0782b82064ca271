import { requireAuthenticated, requireCapability, requireReach, type Caller } from './caller.js';
import type { Authorization } from './operation.js';

/**
 * Checks an operation's declared authorization against this request's caller, in the order of
 * the taxonomy: a credential (401), the admin grant (403, naming it), every named project
 * (403, naming it), then any further grant (403, naming it). Runs after input validation, since
 * the projects are input; the implementation still narrows by reach on its own.
 */
export function authorize(auth: Authorization, caller: Caller, input: unknown): void {
  if (auth.access === 'open') return;
  requireAuthenticated(caller);
  if (auth.access === 'admin') requireCapability(caller, 'admin');
  if (auth.project !== undefined) {
    const value = (input as Record<string, unknown> | null)?.[auth.project];
    const named =
      typeof value === 'string'
        ? [value]
        : Array.isArray(value)
          ? value.filter((v): v is string => typeof v === 'string')
          : [];
    for (const project of named) requireReach(caller, project);
  }
  if (auth.capability !== undefined) requireCapability(caller, auth.capability);
}
