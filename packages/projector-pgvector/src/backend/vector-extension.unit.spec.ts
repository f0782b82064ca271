import { describe, expect, it } from 'vitest';
import type { Sql } from './sql.js';
import { ensureVectorExtension } from './vector-extension.js';

/** A database that answers the catalogue queries from a script, and records what it was sent. */
function fakeDatabase(state: {
  installed?: { version: string; schema: string };
  available?: string;
  canCreate?: boolean;
}): Sql & { sent: string[] } {
  const sent: string[] = [];
  return {
    sent,
    async query<Row>(text: string) {
      sent.push(text);
      if (text.includes('FROM pg_extension'))
        return (state.installed ? [state.installed] : []) as Row[];
      if (text.includes('pg_available_extensions'))
        return (state.available ? [{ default_version: state.available }] : []) as Row[];
      if (text.includes('current_database')) return [{ db: 'memory' }] as Row[];
      throw new Error(`unexpected query ${text}`);
    },
    async exec(text: string) {
      sent.push(text);
      if (!state.canCreate)
        throw Object.assign(new Error('permission denied to create extension "vector"'), {
          code: '42501',
        });
      state.installed = { version: state.available ?? '0.8.0', schema: 'public' };
    },
  };
}

describe('ensureVectorExtension', () => {
  it('uses an installed pgvector and says whether it scans iteratively (0.8+)', async () => {
    expect(
      await ensureVectorExtension(
        fakeDatabase({ installed: { version: '0.8.1', schema: 'extensions' } }),
        'db',
      ),
    ).toEqual({ version: '0.8.1', schema: 'extensions', iterativeScan: true });
    expect(
      await ensureVectorExtension(
        fakeDatabase({ installed: { version: '0.7.4', schema: 'public' } }),
        'db',
      ),
    ).toMatchObject({ iterativeScan: false });
  });

  it('creates it when it is available and the role may', async () => {
    const db = fakeDatabase({ available: '0.8.0', canCreate: true });
    expect(await ensureVectorExtension(db, 'db')).toMatchObject({ version: '0.8.0' });
    expect(db.sent).toContain('CREATE EXTENSION IF NOT EXISTS vector');
  });

  it('names the fix when it is available but not created: CREATE EXTENSION vector, as owner or superuser', async () => {
    const attempt = ensureVectorExtension(
      fakeDatabase({ available: '0.8.0' }),
      'DATABASE_URL postgres://app@db/memory',
    );
    await expect(attempt).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      details: { fix: 'CREATE EXTENSION vector', available: true, database: 'memory' },
    });
    await expect(ensureVectorExtension(fakeDatabase({ available: '0.8.0' }), 'x')).rejects.toThrow(
      /CREATE EXTENSION vector;.*>= 0\.7/,
    );
  });

  it('names the fix when the server has no pgvector at all', async () => {
    await expect(ensureVectorExtension(fakeDatabase({}), 'x')).rejects.toThrow(
      /install pgvector >= 0\.7.*CREATE EXTENSION vector/,
    );
  });

  it('refuses pgvector older than 0.7, naming ALTER EXTENSION vector UPDATE', async () => {
    await expect(
      ensureVectorExtension(
        fakeDatabase({ installed: { version: '0.6.2', schema: 'public' } }),
        'x',
      ),
    ).rejects.toMatchObject({
      code: 'CONFIG_INVALID',
      details: { version: '0.6.2', fix: 'ALTER EXTENSION vector UPDATE' },
    });
  });
});
