import { z } from 'zod';
import { MemError, dayStart } from '@mem/core';
import type { TokenRow } from '@mem/projector-sqlite';
import { mintSecret } from '../credentials.js';
import { defineOperation } from '../operation.js';
import {
  capabilityInput,
  labelInput,
  principalInput,
  projectInput,
  tokenIdInput,
  tokenView,
} from './schemas.js';
import { writeSystem } from './system-log.js';

const TOOL = 'manage_tokens';

const sortedUnique = <T extends string>(list: readonly T[]): T[] => [...new Set(list)].sort();

/**
 * Mints a token for a principal. Its reach is checked at use, never at issue: `projects` (a
 * list, or `*` for whatever the principal is a member of) intersected with the principal's
 * membership at each request. Grants default to none. The plaintext is returned this once;
 * only its sha256 is logged. Admin: otherwise a credential could mint itself a wider one.
 */
export const tokenMint = defineOperation({
  name: 'token_mint',
  summary: 'mint a token for a principal (the secret is shown this once)',
  input: z.strictObject({
    principal: principalInput,
    projects: z.union([z.literal('*'), z.array(projectInput).min(1).max(100)]).default('*'),
    capabilities: z.array(capabilityInput).max(2).default([]),
    label: labelInput.default('default'),
    // A date alone is the start of that day in UTC (dayStart), as every time input reads it.
    expires_at: z
      .string()
      .refine((value) => z.iso.datetime({ offset: true }).safeParse(dayStart(value)).success, {
        message:
          'expected an ISO-8601 timestamp such as 2027-01-01T00:00:00Z, or a date such as 2027-01-01 (its start: 00:00 UTC)',
      })
      .transform(dayStart)
      .optional(),
  }),
  output: z.object({ id: z.string(), label: z.string(), secret: z.string() }),
  kind: 'write',
  idempotent: false,
  auth: { access: 'admin' },
  reads: 'control',
  http: { method: 'POST', path: '/memory/tokens', status: 201 },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'mint' },
    description: 'Mint, list and revoke tokens. Admin. A minted secret is shown once.',
  },
  cli: {
    command: ['token', 'mint'],
    options: [
      {
        field: 'principal',
        flag: '--principal <name>',
        description: 'the person the token acts for',
      },
      {
        field: 'projects',
        flag: '--projects <list>',
        description:
          'comma-separated projects, or * for all the principal is a member of (default *)',
        parse: 'list-or-star',
      },
      {
        field: 'capabilities',
        flag: '--capability <list>',
        description: 'comma-separated grants: may_write_rules, admin (default none)',
        parse: 'list',
      },
      {
        field: 'label',
        flag: '--label <label>',
        description: 'a name recorded on every write the token makes (default "default")',
      },
      {
        field: 'expires_at',
        flag: '--expires <iso>',
        description: 'expiry, ISO-8601, or a date alone for its 00:00 UTC (default never)',
      },
    ],
    text: (out) =>
      `minted token ${out.id} (${out.label}); the secret is shown this once:\n${out.secret}`,
  },
  run: async (ctx, caller, input) => {
    const now = ctx.now();
    let expiresAt: string | null = null;
    if (input.expires_at !== undefined) {
      const at = Date.parse(input.expires_at);
      if (!(at > now.getTime()))
        throw new MemError(
          'INVALID_INPUT',
          `expires_at: ${input.expires_at} is not in the future`,
          { field: 'expires_at', expected: 'a time in the future' },
        );
      expiresAt = new Date(at).toISOString();
    }
    return writeSystem(ctx, caller, ({ control }) => {
      if (!control.principal(input.principal)) {
        throw new MemError(
          'NOT_FOUND',
          `no principal ${input.principal}: add it first (mem principal add ${input.principal})`,
          { field: 'principal', principal: input.principal },
        );
      }
      const projects = input.projects === '*' ? ('*' as const) : sortedUnique(input.projects);
      if (projects !== '*') {
        const unknown = projects.filter((p) => !control.registeredProject(p));
        if (unknown.length > 0) {
          throw new MemError(
            'INVALID_INPUT',
            `projects: ${unknown.join(', ')} ${unknown.length === 1 ? 'is' : 'are'} not registered (mem project add NAME)`,
            { field: 'projects', expected: 'registered projects, or *' },
          );
        }
      }
      const secret = mintSecret();
      return {
        payloads: [
          {
            type: 'token_minted',
            token_id: secret.tokenId,
            label: input.label,
            principal: input.principal,
            projects,
            capabilities: sortedUnique(input.capabilities),
            expires_at: expiresAt,
            secret_sha256: secret.secretSha256,
          },
        ],
        result: { id: secret.tokenId, label: input.label, secret: secret.plaintext },
      };
    });
  },
});

function view(row: TokenRow) {
  return {
    id: row.token_id,
    label: row.label,
    principal: row.principal,
    projects: row.projects,
    capabilities: row.capabilities,
    created_at: row.created_ts,
    expires_at: row.expires_at,
    revoked: row.revoked_seq !== null,
  };
}

/** Lists every token without its secret (revoked ones too). Admin. */
export const tokenList = defineOperation({
  name: 'token_list',
  summary: 'list tokens (never their secrets)',
  input: z.strictObject({}),
  output: z.array(tokenView),
  kind: 'read',
  idempotent: true,
  auth: { access: 'admin' },
  reads: 'control',
  http: { method: 'GET', path: '/memory/tokens' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'list' } },
  cli: {
    command: ['token', 'list'],
    text: (out) =>
      out.length === 0
        ? 'no tokens'
        : out
            .map(
              (t) =>
                `${t.id}\t${t.label}\t${t.principal}\t${t.projects === '*' ? '*' : t.projects.join(',')}\t${t.capabilities.join(',') || '-'}\t${t.revoked ? 'revoked' : t.expires_at ? `expires ${t.expires_at}` : 'active'}`,
            )
            .join('\n'),
  },
  run: async (ctx) => (await ctx.stores.fresh()).control.tokens().map(view),
});

/** Revokes a token: its next request is a 401. Revoking twice changes nothing. Admin. */
export const tokenRevoke = defineOperation({
  name: 'token_revoke',
  summary: 'revoke a token (its next request gets 401)',
  input: z.strictObject({ id: tokenIdInput, reason: z.string().min(1).max(500).optional() }),
  output: z.object({ id: z.string(), revoked: z.literal(true), changed: z.boolean() }),
  kind: 'write',
  idempotent: true,
  destructive: true,
  auth: { access: 'admin' },
  reads: 'control',
  http: { method: 'DELETE', path: '/memory/tokens/{id}' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'revoke' } },
  cli: {
    command: ['token', 'revoke'],
    args: ['id'],
    options: [
      { field: 'reason', flag: '--reason <text>', description: 'why (recorded in the log)' },
    ],
    text: (out) =>
      out.changed ? `revoked token ${out.id}` : `token ${out.id} was already revoked`,
  },
  run: async (ctx, caller, input) =>
    writeSystem(ctx, caller, ({ control }) => {
      const token = control.token(input.id);
      if (!token)
        throw new MemError('NOT_FOUND', `no token ${input.id}`, { field: 'id', id: input.id });
      const changed = token.revoked_seq === null;
      return {
        payloads: changed
          ? [
              {
                type: 'token_revoked',
                token_id: input.id,
                ...(input.reason !== undefined ? { reason: input.reason } : {}),
              },
            ]
          : [],
        result: { id: input.id, revoked: true as const, changed },
      };
    }),
});
