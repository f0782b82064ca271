import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { memInProcess } from './support/mem-cli.js';

/*
 * The stop-33 walk: `mem items read` of an item archived (by review supersede or items
 * attention) did not say it was archived, and a reminder months past showed under "reminders
 * due within 14 days" with no overdue mark.
 */
let root: string;
const mem = (args: readonly string[]) => memInProcess(['--root', root, ...args], { cwd: tmpdir() });

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-item-marks-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** The id `mem remember … --json` answered with. */
async function remember(args: readonly string[]): Promise<string> {
  const run = await mem(['remember', ...args, '--project', 'demo', '--json']);
  expect(run.code, run.stderr).toBe(0);
  return (JSON.parse(run.stdout) as { ids: string[] }).ids[0]!;
}

describe('items read and orient mark what a reader must not miss', () => {
  it('an archived item reads as archived, in text and --json; an active one carries no mark', async () => {
    const id = await remember(['Builds run on Jenkins', '--type', 'fact']);
    const active = await mem(['items', 'read', id, '--project', 'demo', '--json']);
    expect(JSON.parse(active.stdout).items[0]).not.toHaveProperty('attention');
    const filed = await mem([
      'items',
      'attention',
      id,
      'archive',
      '--project',
      'demo',
      '--reason',
      'moved to CI',
    ]);
    expect(filed.code, filed.stderr).toBe(0);
    const read = await mem(['items', 'read', id, '--project', 'demo']);
    expect(read.stdout.split('\n')[0]).toBe(`${id} fact (archived) Builds run on Jenkins`);
    const json = await mem(['items', 'read', id, '--project', 'demo', '--json']);
    expect(JSON.parse(json.stdout).items[0]).toMatchObject({ attention: 'archive' });
  });

  it('a reminder past its time is marked overdue with its days; one ahead is not', async () => {
    const late = await remember([
      'Renew the cert',
      '--type',
      'reminder',
      '--remind-at',
      '2026-08-01T00:00:00Z',
    ]);
    const soon = await remember([
      'Rotate keys',
      '--type',
      'reminder',
      '--remind-at',
      '2026-12-10T00:00:00Z',
    ]);
    const orient = await mem(['orient', '--project', 'demo', '--now', '2026-12-07T00:00:00Z']);
    expect(orient.code, orient.stderr).toBe(0);
    expect(orient.stdout).toContain(
      `  ${late} 2026-08-01T00:00:00Z (overdue 128 days) Renew the cert`,
    );
    expect(orient.stdout).toContain(`  ${soon} 2026-12-10T00:00:00Z Rotate keys`);
  });
});
