// Writes docs/events.md's table from the built packages (`npm run docs`, after `tsc -b`);
// test/event-catalogue-doc.unit.spec.ts fails while the committed file differs.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { renderEventCatalogue } from '@mem/core';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorPgvector } from '@mem/projector-pgvector';
import { projectorVault } from '@mem/projector-vault';

export const BEGIN = '<!-- event catalogue: rendered by `npm run docs`, do not edit -->';
export const END = '<!-- end of event catalogue -->';

export function eventReaders() {
  return {
    sqlite: projectorSqlite.handles,
    pgvector: projectorPgvector().handles,
    vault: projectorVault.handles,
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const path = join(import.meta.dirname, '..', '..', 'docs', 'events.md');
  const text = readFileSync(path, 'utf8');
  const start = text.indexOf(BEGIN);
  const end = text.indexOf(END);
  if (start < 0 || end < start) throw new Error(`${path}: the catalogue markers are missing`);
  const table = renderEventCatalogue(eventReaders());
  writeFileSync(path, `${text.slice(0, start + BEGIN.length)}\n${table}\n${text.slice(end)}`);
}
