import { describe, expect, it } from 'vitest';
import { contentSha256 } from '@mem/core';
import { planNoteCapture } from './capture-plan.js';

const PATH = 'demo/bugs.md';
const NOTE = [
  '---',
  'project: demo',
  'level: L1',
  'query_id: bugs',
  '---',
  '# Bugs — demo',
  '',
  '- The theme loader crashed on a missing file ^aaaaaaaa',
  '  - from s chunk [[demo/sources/s#^11111111|1]]',
  '- The fix was a default theme ^bbbbbbbb',
  '  - from s chunk [[demo/sources/s#^22222222|2]]',
  '- Tests run with vitest ^cccccccc',
  '  - from s chunk [[demo/sources/s#^33333333|3]]',
  '',
].join('\n');

const nobody = (_text: string): string | null => null;
const plan = (onDisk: string | null, projected: string | null = NOTE, refusedBy = nobody) =>
  planNoteCapture({ path: PATH, projected, onDisk, refusedBy });
const edit = (from: string, to: string) => {
  expect(NOTE).toContain(from);
  return NOTE.replace(from, to);
};

describe('planNoteCapture', () => {
  it('plans nothing for the note as projected, and nothing for CRLF line endings', () => {
    expect(plan(NOTE)).toEqual({ path: PATH, intents: [], findings: [] });
    expect(plan(NOTE.replace(/\n/g, '\r\n'))).toEqual({ path: PATH, intents: [], findings: [] });
  });

  it('plans nothing for a whitespace-only edit', () => {
    const spaced = edit('The fix was a default theme ^b', 'The  fix was a default theme   ^b');
    expect(plan(spaced + '  ')).toEqual({ path: PATH, intents: [], findings: [] });
  });

  it('forgets a deleted line (with its provenance line) by its block id', () => {
    const gone = edit(
      '- The fix was a default theme ^bbbbbbbb\n  - from s chunk [[demo/sources/s#^22222222|2]]\n',
      '',
    );
    expect(plan(gone)).toEqual({
      path: PATH,
      intents: [{ kind: 'forget', path: PATH, line: 10, block: 'bbbbbbbb' }],
      findings: [],
    });
  });

  it('supersedes a rewritten line by its new text', () => {
    const rewritten = edit('The fix was a default theme', 'The fix was a bundled default theme');
    expect(plan(rewritten).intents).toEqual([
      {
        kind: 'supersede',
        path: PATH,
        line: 10,
        block: 'bbbbbbbb',
        text: 'The fix was a bundled default theme',
      },
    ]);
  });

  it('reports a rewrite into forgotten text as FORGOTTEN, and plans no event for it', () => {
    const rewritten = edit('Tests run with vitest', 'The secret is hunter2');
    const result = plan(rewritten, NOTE, (text) =>
      text.includes('hunter2') ? 'f'.repeat(64) : null,
    );
    expect(result.intents).toEqual([]);
    expect(result.findings).toEqual([
      expect.objectContaining({ problem: 'forgotten', line: 12, tombstone: 'f'.repeat(64) }),
    ]);
  });

  it('reports reordered lines and captures nothing', () => {
    const lines = NOTE.split('\n');
    const swapped = [
      ...lines.slice(0, 7),
      ...lines.slice(9, 11),
      ...lines.slice(7, 9),
      ...lines.slice(11),
    ];
    const result = plan(swapped.join('\n'));
    expect(result.intents).toEqual([]);
    expect(result.findings.map((f) => f.problem)).toEqual(['reordered']);
  });

  it('reports an edited block id whose text is unchanged, and forgets nothing', () => {
    const result = plan(edit('^bbbbbbbb', '^bbbbbbb9'));
    expect(result.intents).toEqual([]);
    expect(result.findings).toEqual([
      expect.objectContaining({ problem: 'block_id_edited', line: 10 }),
    ]);
  });

  it('reports a frontmatter edit without capturing it', () => {
    const result = plan(edit('query_id: bugs', 'query_id: other'));
    expect(result.intents).toEqual([]);
    expect(result.findings).toEqual([
      expect.objectContaining({ problem: 'frontmatter_edited', line: 1 }),
    ]);
  });

  describe('a line added among the memory lines', () => {
    const B = 'b'.repeat(64);
    const blocks = new Map([
      ['aaaaaaaa', 'a'.repeat(64)],
      ['bbbbbbbb', B],
      ['cccccccc', 'c'.repeat(64)],
    ]);
    const ADDED = contentSha256('A person added this');
    const withAdded = edit('- Tests run', '- A person added this\n- Tests run');
    const planWith = (
      onDisk: string,
      projected = NOTE,
      added: { sha256: string; shown: string }[] = [],
    ) => planNoteCapture({ path: PATH, projected, onDisk, refusedBy: nobody, blocks, added });
    const captured = [{ sha256: ADDED, shown: 'A person added this' }];

    it('is an add under the line above it', () => {
      expect(planWith(withAdded)).toEqual({
        path: PATH,
        intents: [{ kind: 'add', path: PATH, line: 12, text: 'A person added this', after: B }],
        findings: [],
      });
    });

    it('under another added line, is anchored to it', () => {
      const two = edit('- Tests run', '- A person added this\n- And this\n- Tests run');
      expect(planWith(two).intents.map((i) => i.kind === 'add' && i.after)).toEqual([B, ADDED]);
    });

    it('once captured, plans nothing; deleted, is forgotten; rewritten in place, is superseded', () => {
      expect(planWith(withAdded, withAdded, captured)).toEqual({
        path: PATH,
        intents: [],
        findings: [],
      });
      expect(planWith(NOTE, withAdded, captured).intents).toEqual([
        { kind: 'forget', path: PATH, line: 12, block: '', target: ADDED },
      ]);
      const rewritten = withAdded.replace('A person added this', 'A person rewrote this');
      expect(planWith(rewritten, withAdded, captured).intents).toEqual([
        {
          kind: 'supersede',
          path: PATH,
          line: 12,
          block: '',
          target: ADDED,
          text: 'A person rewrote this',
        },
      ]);
    });

    it('refused by a tombstone, is reported as forgotten and not captured', () => {
      const result = planNoteCapture({
        path: PATH,
        projected: NOTE,
        onDisk: withAdded,
        refusedBy: (text) => (text === 'A person added this' ? 'f'.repeat(64) : null),
        blocks,
      });
      expect(result.intents).toEqual([]);
      expect(result.findings).toEqual([
        expect.objectContaining({ problem: 'forgotten', line: 12 }),
      ]);
    });

    it('with a block id the note never had, is reported and not captured', () => {
      const result = planWith(edit('- Tests run', '- A person added this ^dddddddd\n- Tests run'));
      expect(result.intents).toEqual([]);
      expect(result.findings).toEqual([
        expect.objectContaining({ problem: 'line_added', line: 12 }),
      ]);
    });
  });

  it('reports a deleted note and forgets none of its lines', () => {
    const result = plan(null);
    expect(result.intents).toEqual([]);
    expect(result.findings).toEqual([expect.objectContaining({ problem: 'note_deleted' })]);
  });

  it('reports a file the projector never wrote', () => {
    const result = plan('# my own notes\n', null);
    expect(result.intents).toEqual([]);
    expect(result.findings).toEqual([expect.objectContaining({ problem: 'untracked_file' })]);
  });

  it('names the line of a body edit and what changed there (stop-32 walk: no line was named)', () => {
    const heading = plan(edit('# Bugs — demo', '# Bugs and more — demo')).findings;
    expect(heading).toEqual([
      {
        path: PATH,
        line: 6,
        problem: 'body_edited',
        message: `${PATH} line 6: a heading, provenance line or other text outside the memory lines was edited (the note has "# Bugs — demo" where the file has "# Bugs and more — demo"); not captured`,
      },
    ]);
    const appended = plan(`${NOTE}my own line\n`).findings;
    expect(appended).toEqual([expect.objectContaining({ problem: 'body_edited', line: 14 })]);
    expect(appended[0]!.message).toContain('line 14');
    expect(appended[0]!.message).toContain('the file has "my own line"');
  });

  it('reports an orphaned provenance line as a body edit', () => {
    const result = plan(edit('- The fix was a default theme ^bbbbbbbb\n', ''));
    expect(result.intents).toEqual([{ kind: 'forget', path: PATH, line: 10, block: 'bbbbbbbb' }]);
    expect(result.findings.map((f) => f.problem)).toEqual(['body_edited']);
  });
});
