import { readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { hasErrorCode, SYSTEM_PROJECT } from '@mem/core';
import {
  asRoot,
  callerFor,
  mint,
  registryAt,
  seedIdentity,
  tempDataRoot,
} from '../../../test/api/support.js';
import type { Registry } from './registry.js';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

async function setup(): Promise<{ root: string; registry: Registry }> {
  const { root, cleanup } = tempDataRoot(['alpha', 'beta']);
  const registry = await registryAt(root);
  cleanups.push(cleanup, () => registry.close());
  await seedIdentity(registry, { alice: ['alpha', 'beta'], bob: ['beta'] });
  return { root, registry };
}

async function rejection(promise: Promise<unknown>): Promise<unknown> {
  try {
    await promise;
  } catch (error) {
    return error;
  }
  throw new Error('expected a rejection');
}

describe('identity: principals, projects, memberships, tokens', () => {
  it('a token reaches its projects intersected with the current membership', async () => {
    const { registry } = await setup();
    const star = await mint(registry, { principal: 'alice' });
    const narrow = await mint(registry, {
      principal: 'alice',
      projects: ['alpha'],
      label: 'deputy',
    });
    const wider = await mint(registry, { principal: 'bob', projects: ['alpha', 'beta'] });
    expect((await callerFor(registry, star.secret)).reach).toEqual(['alpha', 'beta']);
    // Narrower than its principal, it stays narrow.
    expect((await callerFor(registry, narrow.secret)).reach).toEqual(['alpha']);
    // Naming a project its principal is not a member of grants nothing.
    expect((await callerFor(registry, wider.secret)).reach).toEqual(['beta']);
    const caller = await callerFor(registry, narrow.secret);
    expect(
      hasErrorCode(
        await rejection(registry.invoke('project_status', caller, { project: 'beta' })),
        'FORBIDDEN',
      ),
    ).toBe(true);
    expect(await registry.invoke('project_list', caller, {})).toEqual([
      { name: 'alpha', synthesis: null },
    ]);
  });

  it('removing a membership takes effect on the next request, with no sweep', async () => {
    const { registry } = await setup();
    const token = await mint(registry, { principal: 'alice' });
    await registry.invoke('project_status', await callerFor(registry, token.secret), {
      project: 'beta',
    });
    await asRoot(registry, 'member_remove', { project: 'beta', principal: 'alice' });
    const error = await rejection(
      registry.invoke('project_status', await callerFor(registry, token.secret), {
        project: 'beta',
      }),
    );
    expect(hasErrorCode(error, 'FORBIDDEN')).toBe(true);
    expect((error as { details: unknown }).details).toEqual({ project: 'beta' });
  });

  it('a revoked token is refused on its next request; its rotation partner keeps working', async () => {
    const { registry } = await setup();
    const old = await mint(registry, { principal: 'bob', label: 'ci' });
    const next = await mint(registry, { principal: 'bob', label: 'ci' });
    expect((await callerFor(registry, old.secret)).label).toBe('ci');
    expect(await asRoot(registry, 'token_revoke', { id: old.id, reason: 'rotated' })).toEqual({
      id: old.id,
      revoked: true,
      changed: true,
    });
    expect(hasErrorCode(await rejection(callerFor(registry, old.secret)), 'UNAUTHENTICATED')).toBe(
      true,
    );
    expect((await callerFor(registry, next.secret)).reach).toEqual(['beta']);
    expect(await asRoot(registry, 'token_revoke', { id: old.id })).toEqual({
      id: old.id,
      revoked: true,
      changed: false,
    });
  });

  it('refuses unknown, malformed, tampered and expired credentials alike', async () => {
    const { registry } = await setup();
    const token = await mint(registry, { principal: 'bob' });
    const tampered = token.secret.slice(0, -1) + (token.secret.endsWith('A') ? 'B' : 'A');
    for (const credential of ['', 'nope', tampered, `mem_0000000000000000_${'a'.repeat(43)}`]) {
      const error = await rejection(registry.authenticate(credential, 'http'));
      expect(hasErrorCode(error, 'UNAUTHENTICATED')).toBe(true);
      expect((error as Error).message).toBe('missing or invalid token');
    }
    let now = new Date('2030-01-01T00:00:00Z');
    const clocked = { ...registry.context, now: () => now };
    Object.assign(registry.context, clocked);
    const expiring = await mint(registry, {
      principal: 'bob',
      expires_at: '2030-01-01T01:00:00+00:00',
    });
    expect((await callerFor(registry, expiring.secret)).reach).toEqual(['beta']);
    now = new Date('2030-01-01T01:00:00Z');
    expect(
      hasErrorCode(await rejection(callerFor(registry, expiring.secret)), 'UNAUTHENTICATED'),
    ).toBe(true);
  });

  it('a date alone as expires_at is the start of that day in UTC, as item fields read it', async () => {
    const { registry } = await setup();
    let now = new Date('2030-01-01T23:59:59Z');
    Object.assign(registry.context, { ...registry.context, now: () => now });
    const expiring = await mint(registry, { principal: 'bob', expires_at: '2030-01-02' });
    expect((await callerFor(registry, expiring.secret)).reach).toEqual(['beta']);
    now = new Date('2030-01-02T00:00:00Z');
    expect(
      hasErrorCode(await rejection(callerFor(registry, expiring.secret)), 'UNAUTHENTICATED'),
    ).toBe(true);
    for (const expires_at of ['2030-02-30', '2030-01-02T00:00'])
      expect(
        hasErrorCode(
          await rejection(mint(registry, { principal: 'bob', expires_at })),
          'INVALID_INPUT',
        ),
      ).toBe(true);
  });

  it('administration needs the admin grant; a token cannot mint itself a wider one', async () => {
    const { registry } = await setup();
    const plain = await callerFor(registry, (await mint(registry, { principal: 'alice' })).secret);
    const error = await rejection(
      registry.invoke('token_mint', plain, { principal: 'alice', capabilities: ['admin'] }),
    );
    expect(hasErrorCode(error, 'CAPABILITY_REQUIRED')).toBe(true);
    expect((error as { details: unknown }).details).toEqual({ capability: 'admin' });
    const admin = await callerFor(
      registry,
      (await mint(registry, { principal: 'alice', capabilities: ['admin'] })).secret,
    );
    const minted = (await registry.invoke('token_mint', admin, {
      principal: 'bob',
      projects: ['beta'],
    })) as { secret: string };
    expect((await callerFor(registry, minted.secret)).principal).toBe('bob');
  });

  it('refuses duplicates and dangling references with clear errors, writing nothing', async () => {
    const { root, registry } = await setup();
    const head = async () => (await registry.context.engine.head(SYSTEM_PROJECT)).seq;
    const before = await head();
    expect(
      hasErrorCode(
        await rejection(asRoot(registry, 'principal_add', { name: 'alice' })),
        'CONFLICT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(await rejection(asRoot(registry, 'project_add', { name: 'alpha' })), 'CONFLICT'),
    ).toBe(true);
    expect(
      hasErrorCode(
        await rejection(asRoot(registry, 'project_add', { name: '_system' })),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        await rejection(asRoot(registry, 'member_add', { project: 'gamma', principal: 'alice' })),
        'NOT_FOUND',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        await rejection(asRoot(registry, 'token_mint', { principal: 'carol' })),
        'NOT_FOUND',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        await rejection(
          asRoot(registry, 'token_mint', { principal: 'alice', projects: ['gamma'] }),
        ),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        await rejection(
          asRoot(registry, 'token_mint', {
            principal: 'alice',
            expires_at: '2001-01-01T00:00:00Z',
          }),
        ),
        'INVALID_INPUT',
      ),
    ).toBe(true);
    expect(
      hasErrorCode(
        await rejection(asRoot(registry, 'token_revoke', { id: '0123456789abcdef' })),
        'NOT_FOUND',
      ),
    ).toBe(true);
    expect(
      await asRoot(registry, 'member_add', { project: 'alpha', principal: 'alice' }),
    ).toMatchObject({ changed: false });
    expect(await head()).toBe(before);
    expect(readdirSync(join(root, 'log'))).toContain(SYSTEM_PROJECT);
  });

  it('logs who did what by token label, and never a secret: not in the log, not in the SQLite file', async () => {
    const { root, registry } = await setup();
    const admin = await mint(registry, {
      principal: 'alice',
      capabilities: ['admin'],
      label: 'console',
    });
    const caller = await callerFor(registry, admin.secret);
    const minted = (await registry.invoke('token_mint', caller, { principal: 'bob' })) as {
      id: string;
      secret: string;
    };
    const log = readFileSync(join(root, 'log', SYSTEM_PROJECT, '000001.jsonl'), 'utf8');
    const last = JSON.parse(log.trim().split('\n').at(-1)!) as Record<string, unknown>;
    expect(last['writer']).toEqual({ kind: 'api', principal: 'alice', token: 'console' });
    expect(last['token_id']).toBe(minted.id);
    const sqlite = readFileSync(join(root, '.mem', 'items.sqlite'));
    for (const secret of [admin.secret, minted.secret]) {
      const part = secret.slice('mem_'.length + 17); // the secret after mem_<id>_
      expect(log).not.toContain(part);
      expect(sqlite.includes(Buffer.from(part))).toBe(false);
    }
  });
});
