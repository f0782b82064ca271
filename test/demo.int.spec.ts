import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { projectorVault } from '@mem/projector-vault';

/*
 * The committed demo is the README's promise: vault/demo is exactly what log/demo projects to,
 * and the main job over the bundled transcripts finds nothing new to write.
 */
const repo = join(import.meta.dirname, '..');
let root: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-demo-'));
  cpSync(join(repo, 'log', 'demo'), join(root, 'log', 'demo'), { recursive: true });
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('the committed demo', () => {
  it('vault/demo is byte for byte what a rebuild of log/demo writes', async () => {
    const engine = new Engine({ root, projectors: [projectorSqlite, projectorVault] });
    await engine.rebuild();
    const committed = join(repo, 'vault', 'demo');
    const rebuilt = join(root, 'vault', 'demo');
    // Recursive: the vault writes sources/ (and, with evidence notes, evidence/) beside the notes.
    const files = readdirSync(committed, { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.md'))
      .sort();
    expect(
      readdirSync(rebuilt, { recursive: true, encoding: 'utf8' })
        .filter((path) => path.endsWith('.md'))
        .sort(),
    ).toEqual(files);
    expect(files).toContain(join('sources', 'pi-pi-mono-large-session.md'));
    for (const file of files)
      expect(readFileSync(join(rebuilt, file), 'utf8')).toBe(
        readFileSync(join(committed, file), 'utf8'),
      );
    expect((await engine.verify()).ok).toBe(true);
  });
});
