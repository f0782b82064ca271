import { mkdirSync, mkdtempSync, realpathSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkSource, resolveBeneath } from './source-check.js';

/*
 * Stop-31 review, nits: a data root reached through a symlink (`/srv/mem` -> `/data/mem`) whose
 * files link to each other by absolute paths through the root's own (given) path were refused
 * as outside; the rest of the confinement is in test/api/cited-source-confinement.int.spec.ts.
 */
const base = realpathSync(mkdtempSync(join(tmpdir(), 'mem-source-check-')));
const real = join(base, 'real');
const given = join(base, 'given');
mkdirSync(real);
symlinkSync(real, given);
writeFileSync(join(real, 'runbook.md'), 'Deploys go blue.\n');
symlinkSync(join(given, 'runbook.md'), join(real, 'via-given'));
symlinkSync(join(real, 'runbook.md'), join(real, 'via-real'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

describe('a data root reached through a symlink', () => {
  it('follows a symlink whose absolute target names the root by its given path, or by its real one', async () => {
    expect(await resolveBeneath(given, 'via-given')).toBe(join(real, 'runbook.md'));
    expect(await resolveBeneath(given, 'via-real')).toBe(join(real, 'runbook.md'));
    // Given as its real path, the root's other name is a path outside it, never looked at.
    expect(await resolveBeneath(real, 'via-given')).toBeNull();
  });

  it('reads the cited file through it', async () => {
    const cited = {
      project: 'p',
      source_uri: 'via-given',
      source_sha256: '0'.repeat(64),
    };
    expect(await checkSource(cited, given)).toBe('changed');
  });
});
