import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';
import { projectorContract } from './contract/projector-contract.js';

projectorContract('sqlite', () => projectorSqlite);
projectorContract('vault', () => projectorVault);
projectorContract('vault (evidence notes)', () => projectorVault, { options: { emitEvidenceNotes: true } });
