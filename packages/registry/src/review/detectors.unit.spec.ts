import { describe, expect, it } from 'vitest';
import { contentSha256, itemId, reviewId, type EventOf } from '@mem/core';
import { claimOf, valuesOf } from './claim.js';
import { detectContradictions } from './detect-contradictions.js';
import { detectDuplicates } from './detect-duplicates.js';
import { detectResurfacing } from './detect-resurfacing.js';
import { detectStaleGrounding } from './detect-stale-grounding.js';
import type { LiveLine } from './finding.js';
import { foldQueue } from './queue.js';
import { planScan } from './scan.js';

const line = (text: string) => ({ sha256: contentSha256(text), text });
const sorted = (...shas: string[]) => [...shas].sort();

const inNote = (text: string, note: string, extra: Partial<LiveLine> = {}) => ({
  ...line(text),
  note,
  ...extra,
});

describe('detectDuplicates', () => {
  it('flags two lines of different notes whose content terms overlap past the threshold, and explains it', () => {
    const a = inNote('The theme loader crashes when the config file is missing.', 'L1:bugs');
    const b = inNote('Theme loader crashed because the config file was missing.', 'L1:tools');
    const c = inNote('Deploys go through the staging cluster first.', 'L1:bugs');
    const findings = detectDuplicates([c, b, a]);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ kind: 'duplicate', subjects: sorted(a.sha256, b.sha256) });
    expect(findings[0]!.explanation).toMatch(
      /share \d+ of \d+ content terms \(Jaccard 0\.\d\d >= 0\.75\)/,
    );
  });

  it('leaves lines that share a word or two alone, and short lines', () => {
    const a = line('The theme loader reads YAML.');
    const b = line('The theme loader caches compiled templates on disk.');
    expect(detectDuplicates([a, b, line('cache hit'), line('cache hits')])).toEqual([]);
  });

  it('leaves the synthesis copy of a line, two lines of one note, and differing values alone', () => {
    const l1 = inNote('Invalid themes will never crash the app again!', 'L1:bugs', {
      memory: 'm'.repeat(64),
    });
    const copy = inNote(
      '[bugs-and-root-causes] Invalid themes will never crash the app again!',
      'L2:synthesis',
    );
    const rests = inNote(
      'Themes that are invalid will never crash the app again.',
      'L2:synthesis',
      {
        parents: ['m'.repeat(64)],
      },
    );
    const same = inNote('Invalid themes never crash the app again.', 'L1:bugs');
    const v1 = inNote('Commit: Release v0.8.0 of the coding agent', 'L1:a');
    const v2 = inNote('Commit: Release v0.27.3 of the coding agent', 'L1:b');
    expect(detectDuplicates([l1, copy, rests, v1, v2])).toEqual([]);
    expect(detectDuplicates([l1, same])).toEqual([]);
  });
});

describe('detectContradictions', () => {
  it('flags the same subject claimed with different code spans, numbers or paths', () => {
    const pytest = line('The tests run with `pytest -x`.');
    const npm = line('[tool-failures] The tests run with `npm test`.');
    const port = line('Port is 5432');
    const other = line('port is 6543, as the compose file says');
    const node18 = line('The build requires Node 18 on CI.');
    const node20 = line('The build requires Node 20 on CI.');
    const findings = detectContradictions([pytest, npm, port, other, node18, node20]);
    expect(findings.map((f) => f.subjects).sort()).toEqual(
      [
        sorted(pytest.sha256, npm.sha256),
        sorted(port.sha256, other.sha256),
        sorted(node18.sha256, node20.sha256),
      ].sort(),
    );
    expect(findings.every((f) => f.kind === 'contradiction')).toBe(true);
    expect(findings[0]!.explanation).toMatch(/same subject .* different values/);
    for (const f of findings) expect(f.explanation).not.toMatch(/pytest|npm|5432|6543|18|20/);
  });

  it('does not flag events, the same value, another subject, a negation, or a line without a value', () => {
    expect(
      detectContradictions([
        line('Fixed the type in: `docs/hooks.md`'),
        line('Fixed the type in: `packages/agent/src/types.ts`'),
        line('Commit: Release v0.8.0'),
        line('Commit: Release v0.27.3'),
        line('The build requires Node 18 on CI.'),
        line('The build requires Node 18 on CI!'),
        line('The linter requires Node 20.'),
        line('The build does not require Node 20 on CI.'),
        line('The build requires Node on CI.'),
      ]),
    ).toEqual([]);
  });

  it('reads a claim as key and values, and nothing from a line stating no state', () => {
    expect(claimOf('The tests run with `pytest -x` on CI.')?.values).toEqual(['pytest -x']);
    expect(claimOf('Upgrade pnpm to 9.1.2 in tools/ci/setup.sh.')).toBeNull();
    expect(valuesOf('Upgrade pnpm to 9.1.2 in tools/ci/setup.sh.')).toEqual([
      '9.1.2',
      'tools/ci/setup.sh',
    ]);
    expect(claimOf('port is 5432')?.key).not.toBe(claimOf('port is not 5432')?.key);
  });
});

describe('detectResurfacing', () => {
  it('opens one finding per forced re-add, naming tombstone and line', () => {
    const event = {
      type: 'resurfaced',
      seq: 12,
      tombstone: 'a'.repeat(64),
      line_sha256: 'b'.repeat(64),
      match: 'reword',
    } as EventOf<'resurfaced'>;
    const [finding] = detectResurfacing([event]);
    expect(finding).toMatchObject({
      kind: 'resurfacing',
      subjects: ['a'.repeat(64), 'b'.repeat(64)],
    });
    expect(finding!.explanation).toMatch(/--force at seq 12 .*\(reword match\)/);
  });
});

describe('detectStaleGrounding', () => {
  const chunk = (n: string, start: number) => ({
    source: `claude:session-${n}`,
    start,
    end: start + 4,
    sha256: n.repeat(64),
    chunkTokens: 5000,
  });
  const e1 = chunk('1', 0);
  const e2 = chunk('2', 4);
  const evidence = new Map([e1, e2].map((c) => [c.sha256, c]));
  const key = (c: typeof e1) => `${c.source}@${c.start}-${c.end}:${c.sha256}`;
  const cited = (text: string, ...parents: string[]) => ({ ...line(text), parents });

  it('flags a line whose cited chunk changed or is gone, naming the line and each stale evidence', () => {
    const a = cited('The loader reads YAML.', e1.sha256, e2.sha256);
    const b = cited('The port is 5432.', e2.sha256);
    const grounding = new Map([
      [key(e1), 'changed' as const],
      [key(e2), 'gone' as const],
    ]);
    const findings = detectStaleGrounding([a, b], evidence, grounding);
    expect(findings.map((f) => f.subjects)).toEqual([
      sorted(a.sha256, e1.sha256, e2.sha256),
      sorted(b.sha256, e2.sha256),
    ]);
    expect(findings[0]!.explanation).toMatch(
      /evidence 11111111 \(claude:session-1, records 0-4\) changed: .*evidence 22222222 \(claude:session-2, records 4-8\) is gone/,
    );
    expect(findings[0]!.explanation).not.toContain('YAML');
  });

  it('leaves a line alone whose chunks are unchanged, unjudged or not evidence', () => {
    const grounding = new Map([[key(e1), 'unchanged' as const]]);
    expect(
      detectStaleGrounding(
        [
          cited('The loader reads YAML.', e1.sha256),
          cited('The port is 5432.', e2.sha256),
          cited('Built on L1 lines.', '9'.repeat(64)),
          line('A hand-made line without parents.'),
        ],
        evidence,
        grounding,
      ),
    ).toEqual([]);
  });
});

describe('planScan', () => {
  const memory = (text: string, seq: number) =>
    ({
      type: 'memory',
      seq,
      sha256: contentSha256(text),
      text,
      lines: text.split('\n').map((t) => ({ sha256: contentSha256(t), parents: ['c'.repeat(64)] })),
    }) as unknown as EventOf<'memory'>;

  it("reads only each note's newest memory: a line the extractor rewrote away is history", () => {
    const run = {
      type: 'run',
      seq: 1,
      run_id: 'r1',
      level: 'L1',
      query_id: 'q',
    } as unknown as EventOf<'run'>;
    const withRun = (text: string, seq: number) => ({ ...memory(text, seq), run_id: 'r1' });
    const old = 'The build requires Node 18 on CI.';
    const now = 'The build requires Node 20 on CI.';
    expect(planScan(foldQueue([run, withRun(old, 2), withRun(now, 3)]))).toEqual([]);
    expect(foldQueue([run, withRun(old, 2), withRun(now, 3)]).liveLines.map((l) => l.text)).toEqual(
      [now],
    );
  });

  it('does not reopen a finding the log already has, and skips forgotten lines', () => {
    const a = 'The build requires Node 18 on CI.';
    const b = 'The build requires Node 20 on CI.';
    const events = [memory(`${a}\n${b}`, 1)];
    const first = planScan(foldQueue(events));
    expect(first.map((f) => f.id)).toEqual([
      reviewId('contradiction', [contentSha256(a), contentSha256(b)]),
    ]);
    const opened = { ...first[0]!, seq: 2 } as unknown as EventOf<'review_opened'>;
    expect(planScan(foldQueue([...events, opened]))).toEqual([]);
    const forgotten = {
      type: 'forgotten',
      seq: 3,
      target: contentSha256(b),
      refuses: [{ sha256: contentSha256(b), terms: [] }],
    } as unknown as EventOf<'forgotten'>;
    expect(planScan(foldQueue([...events, forgotten]))).toEqual([]);
  });
});

describe('duplicate items and added lines (the stop-32 walk: two identical facts, 0 findings)', () => {
  const added = (project: string, seq: number, item_type: string, summary: string) =>
    ({ type: 'item_added', project, seq, item_type, summary }) as unknown as EventOf<'item_added'>;
  const ev = <T extends string>(type: T, seq: number, fields: object) =>
    ({ type, seq, ...fields }) as unknown as EventOf<'item_updated'>;
  const idAt = (seq: number) => itemId('demo', seq);

  it('opens one duplicate finding for two facts of equal or near-equal wording, proposing the fold', () => {
    const events = [
      added('demo', 1, 'fact', 'Use pnpm.'),
      added('demo', 2, 'fact', 'use  pnpm'),
      added('demo', 3, 'rule', 'Use pnpm.'),
      added('demo', 4, 'fact', 'The staging cluster deploys every night at two.'),
      added('demo', 5, 'fact', 'Every night at two the staging cluster deploys.'),
      added('demo', 6, 'fact', 'Use npm.'),
    ];
    const findings = planScan(foldQueue(events));
    expect(findings.map((f) => [f.kind, f.subjects])).toEqual(
      [
        ['duplicate', sorted(idAt(1), idAt(2))],
        ['duplicate', sorted(idAt(4), idAt(5))],
      ].sort((a, b) => String(a[1]).localeCompare(String(b[1]))),
    );
    const fold = findings.find((f) => f.subjects.includes(idAt(1)))!;
    expect(fold.explanation).toContain(
      `keeps the newer ${idAt(2)} and files ${idAt(1)} under archive`,
    );
  });

  it('leaves items out of force alone: deleted, resolved, archived, or reworded apart', () => {
    const base = [
      added('demo', 1, 'fact', 'Use pnpm.'),
      added('demo', 2, 'fact', 'Use pnpm.'),
      added('demo', 3, 'task', 'Write the release notes'),
      added('demo', 4, 'task', 'write the release notes.'),
    ];
    expect(planScan(foldQueue(base))).toHaveLength(2);
    const gone = [
      ev('item_deleted', 5, { item: idAt(1), reason: 'r' }),
      ev('item_resolved', 6, { item: idAt(3), from: 'open', status: 'done' }),
    ];
    expect(planScan(foldQueue([...base, ...gone]))).toEqual([]);
    const archived = ev('item_attention_set', 5, { item: idAt(1), attention: 'archive' });
    expect(planScan(foldQueue([...base.slice(0, 2), archived]))).toEqual([]);
    const reworded = ev('item_updated', 5, { item: idAt(1), summary: 'Use yarn.', reason: 'r' });
    expect(planScan(foldQueue([...base.slice(0, 2), reworded]))).toEqual([]);
  });

  it('reads line_added lines as live lines: a person-written line duplicating an extracted one is found', () => {
    const text = 'The theme loader crashes when the config file is missing.';
    const memory = {
      type: 'memory',
      seq: 1,
      run_id: 'r1',
      sha256: contentSha256(text),
      text,
      lines: [{ sha256: contentSha256(text), parents: ['c'.repeat(64)] }],
    } as unknown as EventOf<'memory'>;
    const person = 'Theme loader crashed because the config file was missing.';
    const lineAdded = {
      type: 'line_added',
      seq: 2,
      level: 'L1',
      query_id: 'q',
      after: contentSha256(text),
      sha256: contentSha256(person),
      text: person,
    } as unknown as EventOf<'line_added'>;
    expect(
      foldQueue([memory, lineAdded])
        .liveLines.map((l) => l.text)
        .sort(),
    ).toEqual([person, text].sort());
    expect(planScan(foldQueue([memory, lineAdded])).map((f) => [f.kind, f.subjects])).toEqual([
      ['duplicate', sorted(contentSha256(text), contentSha256(person))],
    ]);
    const forgotten = {
      type: 'forgotten',
      seq: 3,
      target: contentSha256(person),
      refuses: [],
    } as unknown as EventOf<'forgotten'>;
    expect(foldQueue([memory, lineAdded, forgotten]).liveLines).toHaveLength(1);
  });

  it('counts two short lines of the same words, which the term rule is too short for', () => {
    expect(detectDuplicates([line('Use pnpm.'), line('use pnpm')])).toHaveLength(1);
    expect(detectDuplicates([line('Use pnpm.'), line('Use npm.')])).toEqual([]);
  });
});

describe('planScan joins duplicate pairs that share a statement', () => {
  // Three copies of one statement (the content sha folds case, so each is named by its note here).
  const copies = ['L1:bugs', 'L1:tools', 'L1:infra'].map((note) =>
    inNote('The theme loader crashes when the config file is missing.', note, {
      sha256: contentSha256(note),
    }),
  );
  const queue = (findings: Map<string, unknown> = new Map()) =>
    ({
      findings,
      resurfaced: [],
      liveLines: copies,
      evidence: new Map(),
      items: new Map(),
    }) as unknown as Parameters<typeof planScan>[0];

  it('three copies are one finding naming all three, each pair explained', () => {
    const planned = planScan(queue());
    expect(planned).toHaveLength(1);
    const shas = sorted(...copies.map((c) => c.sha256));
    expect(planned[0]).toMatchObject({
      kind: 'duplicate',
      subjects: shas,
      id: reviewId('duplicate', shas),
    });
    for (const sha of shas) expect(planned[0]!.explanation).toContain(sha.slice(0, 8));
    expect(planned[0]!.explanation).toMatch(/^3 lines say the same statement/);
  });

  it('a log that already holds the three pairwise findings gets no fourth', () => {
    const shas = sorted(...copies.map((c) => c.sha256));
    const pairs = [
      [shas[0]!, shas[1]!],
      [shas[0]!, shas[2]!],
      [shas[1]!, shas[2]!],
    ];
    const opened = new Map(pairs.map((p) => [reviewId('duplicate', p), { opened: {} }]));
    expect(planScan(queue(opened))).toEqual([]);
  });
});
