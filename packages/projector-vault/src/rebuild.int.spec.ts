import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { arbitraryLog } from '../test/arbitrary-log.js';
import { applyBatches, readTree, removeTempTargets, splitAt, tempTarget } from '../test/support.js';
import { projectorVault } from './index.js';

afterAll(removeTempTargets);

describe('rebuild equals incremental catch-up', () => {
  it('random valid logs, split at random points, give the same vault and state as one rebuild', async () => {
    await fc.assert(
      fc.asyncProperty(
        arbitraryLog('demo'),
        fc.array(fc.nat(), { maxLength: 6 }),
        fc.boolean(),
        async (events, cuts, emitEvidenceNotes) => {
          const once = await tempTarget({ emitEvidenceNotes });
          await applyBatches(once, 'demo', [events]);
          const split = await tempTarget({ emitEvidenceNotes });
          await applyBatches(split, 'demo', splitAt(events, cuts));
          expect(await readTree(split.vaultDir)).toEqual(await readTree(once.vaultDir));
          expect(await readTree(split.stateDir)).toEqual(await readTree(once.stateDir));
          const rebuilt = await readTree(once.vaultDir);
          await projectorVault.reset(once);
          expect(await readTree(once.vaultDir)).toEqual(new Map());
          await applyBatches(once, 'demo', [events]);
          expect(await readTree(once.vaultDir)).toEqual(rebuilt);
          await removeTempTargets();
        },
      ),
      { numRuns: 60 },
    );
  });
});
