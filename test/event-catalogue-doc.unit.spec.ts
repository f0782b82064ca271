import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_TYPES, renderEventCatalogue } from '@mem/core';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorPgvector } from '@mem/projector-pgvector';
import { projectorVault } from '@mem/projector-vault';

const doc = readFileSync(join(import.meta.dirname, '..', 'docs', 'events.md'), 'utf8');
const readers = {
  sqlite: projectorSqlite.handles,
  pgvector: projectorPgvector().handles,
  vault: projectorVault.handles,
};

describe('docs/events.md', () => {
  it('is the catalogue the event definitions render (run `npm run docs` after `tsc -b`)', () => {
    expect(doc).toContain(renderEventCatalogue(readers));
  });

  it('has one row per event type, each with a summary and its readers', () => {
    const rows = renderEventCatalogue(readers).split('\n').slice(2);
    expect(rows.map((row) => /^\| `([a-z_]+)` \|/.exec(row)?.[1])).toEqual(EVENT_TYPES);
    expect(rows.find((row) => row.startsWith('| `memory` |'))).toMatch(
      /\| `run_id` `level` .*`lines` `symptom\?` \| pgvector, sqlite, vault \|$/,
    );
  });
});
