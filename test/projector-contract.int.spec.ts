import { describe } from 'vitest';
import { hashEmbedder } from '@mem/embed';
import { projectorPgvector } from '@mem/projector-pgvector';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { projectorContract } from './contract/projector-contract.js';
import { usePglite, usePgliteWire } from '../packages/projector-pgvector/test/pglite-servers.js';

projectorContract('sqlite', () => projectorSqlite);
projectorContract('vault', () => projectorVault);
projectorContract('vault (evidence notes)', () => projectorVault, {
  options: { emitEvidenceNotes: true },
});

// One suite, two backends: PGlite in process (one instance, a schema per target) and the pg
// driver against PGlite served over the wire protocol.
describe('pgvector backends', () => {
  const inProcess = usePglite();
  const wire = usePgliteWire();
  projectorContract('pgvector (PGlite in process)', () =>
    projectorPgvector({ pglite: inProcess.db, embedder: hashEmbedder(64) }),
  );
  projectorContract('pgvector (pg over the wire)', () =>
    projectorPgvector({ databaseUrl: wire.url, embedder: hashEmbedder(64) }),
  );
});
