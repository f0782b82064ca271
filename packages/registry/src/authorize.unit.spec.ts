import { describe, expect, it } from 'vitest';
import { hasErrorCode, type Capability } from '@mem/core';
import { authorize } from './authorize.js';
import { anonymousCaller, localCaller, type Caller } from './caller.js';
import type { Authorization } from './operation.js';

function token(reach: string[], capabilities: Capability[] = []): Caller {
  return {
    kind: 'token',
    surface: 'http',
    principal: 'alice',
    tokenId: '0123456789abcdef',
    label: 'laptop',
    reach,
    capabilities: new Set(capabilities),
  };
}

function refusal(auth: Authorization, caller: Caller, input: unknown): unknown {
  try {
    authorize(auth, caller, input);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('authorize', () => {
  it('lets anyone through an open operation', () => {
    expect(refusal({ access: 'open' }, anonymousCaller('http'), {})).toBeUndefined();
  });

  it('refuses an anonymous caller anything else, with nothing but the class', () => {
    const error = refusal({ access: 'token' }, anonymousCaller('mcp'), {});
    expect(hasErrorCode(error, 'UNAUTHENTICATED')).toBe(true);
    expect((error as { details: unknown }).details).toEqual({});
  });

  it('names the refused project, for one project or each of a list', () => {
    const auth: Authorization = { access: 'token', project: 'project' };
    expect(refusal(auth, token(['alpha']), { project: 'alpha' })).toBeUndefined();
    expect(
      refusal(auth, token(['alpha']), { project: 'beta' }) as { code: string; details: unknown },
    ).toMatchObject({ code: 'FORBIDDEN', details: { project: 'beta' } });
    expect(
      refusal(auth, token(['alpha']), { project: ['alpha', 'gamma'] }) as { details: unknown },
    ).toMatchObject({ details: { project: 'gamma' } });
    expect(refusal(auth, token([]), {})).toBeUndefined();
  });

  it('admin needs the admin grant; the local root of trust holds every grant', () => {
    expect(refusal({ access: 'admin' }, token(['alpha']), {})).toMatchObject({
      code: 'CAPABILITY_REQUIRED',
      details: { capability: 'admin' },
    });
    expect(refusal({ access: 'admin' }, token([], ['admin']), {})).toBeUndefined();
    expect(
      refusal({ access: 'admin', capability: 'may_write_rules' }, localCaller('local:me'), {}),
    ).toBeUndefined();
  });

  it('a write that declares may_write_rules is refused without it, inside a reachable project', () => {
    // No operation authors rules yet; this is the check every such operation will get.
    const rules: Authorization = {
      access: 'token',
      project: 'project',
      capability: 'may_write_rules',
    };
    const error = refusal(rules, token(['alpha']), { project: 'alpha' });
    expect(error).toMatchObject({
      code: 'CAPABILITY_REQUIRED',
      details: { capability: 'may_write_rules' },
    });
    expect(
      refusal(rules, token(['alpha'], ['may_write_rules']), { project: 'alpha' }),
    ).toBeUndefined();
    // The project is checked first: a grant never widens reach.
    expect(
      refusal(rules, token(['alpha'], ['may_write_rules']), { project: 'beta' }),
    ).toMatchObject({ code: 'FORBIDDEN' });
  });
});
