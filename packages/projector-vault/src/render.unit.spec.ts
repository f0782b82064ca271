import { describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { chunk, evidence, gate, l1Run, l2Run, memoryOfLines, sha } from '../test/payloads.js';
import { FIXTURES, readTree, sampleEvents } from '../test/support.js';
import {
  applyEvent,
  emptyFold,
  renderIndexNote,
  renderProjectNotes,
  renderQueryNote,
  type VaultFold,
} from './index.js';

async function foldSample(
  emitEvidenceNotes: boolean,
): Promise<{ fold: VaultFold; evidence: Map<string, string> }> {
  const fold = emptyFold('poimen');
  const evidence = new Map<string, string>();
  for (const { event } of await sampleEvents()) {
    const effect = applyEvent(fold, event, { emitEvidenceNotes });
    if (effect.evidenceNote) evidence.set(effect.evidenceNote.path, effect.evidenceNote.content);
  }
  return { fold, evidence };
}

describe('rendering the sample extraction runs', () => {
  it('renders the L1 note and the index exactly as the fixture (seed 001 form)', async () => {
    const expected = await readTree(`${FIXTURES}/sample-vault`);
    const { fold, evidence } = await foldSample(false);
    expect(renderQueryNote(fold, 'infra-root-causes', { emitEvidenceNotes: false })).toBe(
      expected.get('poimen/infra-root-causes.md'),
    );
    expect(renderIndexNote(fold)).toBe(expected.get('poimen/index.md'));
    expect(evidence.size).toBe(0);
    expect(renderProjectNotes(fold, { emitEvidenceNotes: false })).toEqual(expected);
  });

  it('with evidence notes, links each provenance line to an evidence note that is written', async () => {
    const expected = await readTree(`${FIXTURES}/sample-vault-evidence`);
    const { fold, evidence } = await foldSample(true);
    const rendered = new Map([
      ...renderProjectNotes(fold, { emitEvidenceNotes: true }),
      ...evidence,
    ]);
    expect(new Map([...rendered].sort(([a], [b]) => (a < b ? -1 : 1)))).toEqual(expected);
    const note = rendered.get('poimen/infra-root-causes.md') ?? '';
    for (const [, target] of note.matchAll(/\[\[([^|\]]+)\|/g))
      expect(rendered.has(`${target}.md`)).toBe(true);
  });

  it('counts chunks from gates and dates notes from event ts', async () => {
    const { fold } = await foldSample(false);
    expect(fold.queries.get('infra-root-causes')).toMatchObject({
      chunks_seen: 5,
      chunks_used: 2,
      updated: '2026-08-17',
    });
    expect(fold.index).toMatchObject({ chunks_seen: 1, chunks_used: 1, updated: '2026-08-17' });
  });

  it('writes LF only and exactly one trailing newline', async () => {
    const { fold } = await foldSample(false);
    for (const content of renderProjectNotes(fold, { emitEvidenceNotes: false }).values()) {
      expect(content).not.toContain('\r');
      expect(content.endsWith('\n')).toBe(true);
      expect(content.endsWith('\n\n')).toBe(false);
    }
  });
});

/** The content sha a payload carries (a memory's). */
const shaOf = (payload: object): string => (payload as { sha256: string }).sha256;

describe('lines as the unit of a note', () => {
  const KONG = 'POST /upload returned 413: Kong buffered the body.';
  const PG = 'CI flaked: the pg container raced its volume mount.';
  const DNS = 'We keep the DNS TTL at 60s: 0 stampeded the resolver.';
  const kongLine = 'Requests over 10KB failed with 413: Kong buffered the body.';
  const pgLine = 'CI flake: pg raced its volume mount; fixed with a readiness probe.';
  const dnsLine = 'DNS TTL stays at 60s.';
  const bugs = memoryOfLines('r1', 2, [
    [kongLine, [sha(KONG)]],
    [pgLine, [sha(PG)]],
  ]);
  const decisions = memoryOfLines('r2', 1, [[dnsLine, [sha(DNS)]]]);
  const synthesis = memoryOfLines(
    's1',
    2,
    [
      ['Two infra bugs are fixed.', [shaOf(bugs)]],
      ['DNS TTL is a decision, not a bug.', [shaOf(decisions)]],
      [`[bugs] ${kongLine}`, [shaOf(bugs)]],
    ],
    'L2',
  );
  const payloads = [
    l1Run('r1', 'bugs'),
    chunk('r1', 1, 'claude:s1', 'L0', sha(KONG)),
    gate('r1', 1, true),
    evidence('r1', 1, 'claude:s1', KONG),
    chunk('r1', 2, 'pi:s2', 'L0', sha(PG)),
    gate('r1', 2, true),
    evidence('r1', 2, 'pi:s2', PG),
    bugs,
    l1Run('r2', 'decisions'),
    chunk('r2', 1, 'claude:s1', 'L0', sha(DNS)),
    gate('r2', 1, true),
    evidence('r2', 1, 'claude:s1', DNS),
    decisions,
    l2Run('s1'),
    synthesis,
  ];

  function fold(): VaultFold {
    const state = emptyFold('demo');
    for (const { event } of chainEvents('demo', payloads))
      applyEvent(state, event, { emitEvidenceNotes: false });
    return state;
  }

  /** The list item of `line` in `note` and the provenance item under it. */
  function item(note: string, line: string): [string, string] {
    const lines = note.split('\n');
    const at = lines.findIndex((l) => l.startsWith(`- ${line} ^`));
    expect(at).toBeGreaterThanOrEqual(0);
    return [lines[at] ?? '', lines[at + 1] ?? ''];
  }

  it('renders each L1 line with its block id and only the chunks it came from', () => {
    const note = renderQueryNote(fold(), 'bugs', { emitEvidenceNotes: false });
    expect(item(note, kongLine)).toEqual([
      `- ${kongLine} ^${sha(kongLine).slice(0, 8)}`,
      `  - from claude-s1 chunk [[demo/sources/claude-s1#^${sha(KONG).slice(0, 8)}|1]]`,
    ]);
    expect(item(note, pgLine)).toEqual([
      `- ${pgLine} ^${sha(pgLine).slice(0, 8)}`,
      `  - from pi-s2 chunk [[demo/sources/pi-s2#^${sha(PG).slice(0, 8)}|2]]`,
    ]);
    expect(note).not.toContain('## Provenance');
  });

  it('links an L2 line that copies an L1 line to that line’s block', () => {
    const index = renderIndexNote(fold());
    expect(item(index, `[bugs] ${kongLine}`)[1]).toBe(
      `  - from [[demo/bugs#^${sha(kongLine).slice(0, 8)}|Bugs]]`,
    );
  });

  it('links each L2 line in its own words to the L1 note it came from', () => {
    const index = renderIndexNote(fold());
    expect(item(index, 'Two infra bugs are fixed.')[1]).toBe(
      `  - from [[demo/bugs|Bugs]] (memory ${shaOf(bugs).slice(0, 8)})`,
    );
    expect(item(index, 'DNS TTL is a decision, not a bug.')[1]).toBe(
      `  - from [[demo/decisions|Decisions]] (memory ${shaOf(decisions).slice(0, 8)})`,
    );
  });

  it('writes one note per source session, listing the chunks used with their span and time, by block id', () => {
    const notes = renderProjectNotes(fold(), { emitEvidenceNotes: false });
    expect([...notes.keys()]).toEqual([
      'demo/bugs.md',
      'demo/decisions.md',
      'demo/index.md',
      'demo/sources/claude-s1.md',
      'demo/sources/pi-s2.md',
    ]);
    const claude = notes.get('demo/sources/claude-s1.md') ?? '';
    expect(claude).toContain("sources:\n  - 'claude:s1'\nchunks_used: 2\n");
    expect(claude).toMatch(
      new RegExp(
        `^- chunk 1 · record 0 · read 2026-08-17T09:00:03\\.000Z — POST /upload returned 413: Kong buffered the body\\. \\^${sha(KONG).slice(0, 8)}$`,
        'm',
      ),
    );
    expect(claude).toMatch(
      new RegExp(
        `^- chunk 1 · record 0 · read [^ ]+ — We keep the DNS TTL at 60s: 0 stampeded the resolver\\. \\^${sha(DNS).slice(0, 8)}$`,
        'm',
      ),
    );
  });
});
