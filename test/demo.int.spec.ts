import { cpSync, mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { nearDuplicate } from '@mem/core';
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

  const vault = join(repo, 'vault');
  const notes = new Map(
    readdirSync(join(vault, 'demo'), { recursive: true, encoding: 'utf8' })
      .filter((path) => path.endsWith('.md'))
      .map((path) => [join('demo', path), readFileSync(join(vault, 'demo', path), 'utf8')]),
  );
  /** The L2 index's memory lines, each with the provenance item under it. */
  const l2Lines = (): [string, string][] => {
    const lines = notes.get(join('demo', 'index.md'))!.split('\n');
    return lines.flatMap((line, i) =>
      /^- \[[^\]]+\] .* \^[0-9a-f]{8}(?:-\d+)?$/.test(line) ? [[line, lines[i + 1] ?? '']] : [],
    );
  };

  it('links each L2 line to the block of the L1 line it copies, and every wikilink resolves', () => {
    const lines = l2Lines();
    expect(lines.length).toBeGreaterThan(5);
    for (const [line, from] of lines) {
      const links = [...from.matchAll(/\[\[([^\]|#]+)(#\^[^\]|]+)?\|[^\]]*\]\]/g)];
      expect(links.length, line).toBeGreaterThan(0);
      for (const [link, , block] of links) expect(block, `${line}\n${link}`).toBeDefined();
    }
    const dangling: string[] = [];
    for (const [path, text] of notes)
      for (const [link, target = '', block] of text.matchAll(
        /\[\[([^\]|#\n]*)(?:#\^([^\]|\n]*))?(?:\|[^\]\n]*)?\]\]/g,
      )) {
        const note = notes.get(`${target}.md`);
        if (note === undefined) dangling.push(`${path}: ${link}`);
        else if (block !== undefined && !new RegExp(`\\s\\^${block}$`, 'm').test(note))
          dangling.push(`${path}: ${link}`);
      }
    expect(dangling).toEqual([]);
  });

  it('the synthesis keeps no line twice and updated on at most 30 % of its steps', () => {
    const texts = l2Lines().map(([line]) => line.replace(/^- /, '').replace(/ \^[0-9a-f-]+$/, ''));
    for (const [i, a] of texts.entries())
      for (const b of texts.slice(i + 1)) expect(nearDuplicate(a, b), `${a}\n  ~ ${b}`).toBe(false);
    const gates = readFileSync(join(repo, 'log', 'demo', '000001.jsonl'), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as { type: string; level?: string; update?: boolean })
      .filter((event) => event.type === 'gate' && event.level === 'L2');
    const used = gates.filter((gate) => gate.update).length;
    expect(used).toBeGreaterThan(0);
    expect(used / gates.length).toBeLessThanOrEqual(0.3);
  });
});
