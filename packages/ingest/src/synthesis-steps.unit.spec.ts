import { describe, expect, it } from 'vitest';
import { contentSha256, nearDuplicate } from '@mem/core';
import { synthesisPriority } from '@mem/extractor';
import { synthesisSteps, type SynthesisInput } from './synthesis-steps.js';

const sha = (name: string) => contentSha256(name);
const memory = (queryId: string, lines: string[]): SynthesisInput => ({
  queryId,
  sha256: sha(queryId),
  text: lines.map((l) => `- ${l}`).join('\n'),
});
// Longer lines weigh more: enough to see the order without the heuristic's priority.
const byLength = (lines: readonly string[]) => lines.map((line) => line.length);

describe('synthesisSteps', () => {
  const memories = [
    memory('bugs', [
      'Yeah, it does more than just load the theme: it resolves variable references',
      'The hexToRgb crash came from an invalid colour; the loader now falls back to dark',
      'Compile errors for a missing module were expected mid-edit',
    ]),
    memory('decisions', [
      'Yeah, it does more than just load the theme: it resolves variable references and…',
      'setTheme returns an error instead of logging',
    ]),
    memory('open', [
      'Yeah, it does more than just load the theme: it resolves variable references, colours',
      'Does messagesToSummarize include the last compaction?',
    ]),
  ];

  it('reads many lines per step, in batches', () => {
    const steps = synthesisSteps(memories, byLength, { batchLines: 2 });
    expect(steps.map((s) => s.records.length)).toEqual([2, 2, 1]);
    expect(steps[0]!.records.every((r) => r.role === 'memory')).toBe(true);
    expect(synthesisSteps(memories, byLength).map((s) => s.records.length)).toEqual([5]);
  });

  it('reads in its first step as many of the strongest lines as the memory budget holds', () => {
    const words = (text: string) => text.split(/\s+/).length;
    // The three strongest lines come to 44 words with their markers; the fourth would pass 50.
    const steps = synthesisSteps(memories, byLength, {
      batchLines: 2,
      fill: { tokens: 50, count: words },
    });
    expect(steps.map((s) => s.records.length)).toEqual([3, 2]);
    // A budget smaller than one batch still reads a whole batch.
    const small = synthesisSteps(memories, byLength, {
      batchLines: 2,
      fill: { tokens: 5, count: words },
    });
    expect(small.map((s) => s.records.length)).toEqual([2, 2, 1]);
  });

  it('fills its first step past a strong line too long for the room left', () => {
    const words = (text: string) => text.split(/\s+/).length;
    // Ranked by length: a 14-word line, a 12-word one (too long for what the first leaves of
    // 30), then two of 4 and 3 words that fit. A fill that stopped at the 12-word line left
    // them for a later step, whose only change would be to take the room no stronger line could.
    const steps = synthesisSteps(
      [
        memory('bugs', [
          'The exporter crashed on an empty schema header and now writes an empty file',
          'Every release build is signed on the CI runner with the hardware key',
          'Retries back off',
          'Logs rotate',
        ]),
      ],
      byLength,
      { batchLines: 1, fill: { tokens: 30, count: words } },
    );
    expect(steps.map((s) => s.records.map((r) => r.text))).toEqual([
      [
        '[bugs] The exporter crashed on an empty schema header and now writes an empty file',
        '[bugs] Retries back off',
        '[bugs] Logs rotate',
      ],
      ['[bugs] Every release build is signed on the CI runner with the hardware key'],
    ]);
  });

  it('folds near-duplicates across notes into one line resting on every memory that said it', () => {
    const steps = synthesisSteps(memories, byLength, { batchLines: 2 });
    const lines = steps.flatMap((s) => s.records.map((r) => r.text));
    for (const [i, a] of lines.entries())
      for (const b of lines.slice(i + 1)) expect(nearDuplicate(a, b)).toBe(false);
    const folded =
      '[bugs] Yeah, it does more than just load the theme: it resolves variable references';
    expect(lines).toContain(folded);
    const holder = steps.find((s) => s.lineParents!.has(folded))!;
    expect(holder.lineParents!.get(folded)).toEqual([sha('bugs'), sha('decisions'), sha('open')]);
    expect(holder.source).toMatch(/^L1:bugs,decisions,open/);
  });

  it('offers lines strongest first and is deterministic', () => {
    const lines = synthesisSteps(memories, byLength, { batchLines: 2 }).flatMap((s) =>
      s.records.map((r) => r.text),
    );
    expect(lines).toEqual([
      '[bugs] The hexToRgb crash came from an invalid colour; the loader now falls back to dark',
      '[bugs] Yeah, it does more than just load the theme: it resolves variable references',
      '[bugs] Compile errors for a missing module were expected mid-edit',
      '[open] Does messagesToSummarize include the last compaction?',
      '[decisions] setTheme returns an error instead of logging',
    ]);
    expect(synthesisSteps(memories, byLength, { batchLines: 2 })).toEqual(
      synthesisSteps(memories, byLength, { batchLines: 2 }),
    );
  });

  it('keeps the prefix of a line that already is a synthesis copy', () => {
    const [only] = synthesisSteps([memory('bugs', ['[old] a line copied before'])], byLength);
    expect(only!.records.map((r) => r.text)).toEqual(['[old] a line copied before']);
  });

  it("offers, by the synthesis priority, a state line before a note's second bug", () => {
    const priority = synthesisPriority(
      'What is the current state of this project, and what should someone know before working on it?',
    );
    const lines = synthesisSteps(
      [
        memory('bugs', [
          'The root cause of the crash was an invalid hex colour; fixed with a fallback',
          'The issue was a stale build; the failing compile was fixed by a clean rebuild',
        ]),
        memory('decisions', ['Exports: CSV and Parquet, with a schema header on every file']),
      ],
      priority,
      { batchLines: 1 },
    ).flatMap((s) => s.records.map((r) => r.text));
    expect(lines).toEqual([
      '[decisions] Exports: CSV and Parquet, with a schema header on every file',
      '[bugs] The root cause of the crash was an invalid hex colour; fixed with a fallback',
      '[bugs] The issue was a stale build; the failing compile was fixed by a clean rebuild',
    ]);
  });

  it("retires each held L2 line no L1 line says any more, in the first batch's step", () => {
    const gone =
      '[bugs] The exporter crashed on an empty schema header and now writes an empty file';
    const held = [
      '- [bugs] The hexToRgb crash came from an invalid colour; the loader now falls back to dark',
      `- ${gone}`,
    ].join('\n');
    const plain = synthesisSteps(memories, byLength, { batchLines: 2 });
    const steps = synthesisSteps(memories, byLength, { batchLines: 2, held });
    // No step of its own: the retirement and the lines that take its place are one write.
    expect(steps).toHaveLength(plain.length);
    expect(steps[0]!.records).toEqual([{ role: 'retired', text: gone }, ...plain[0]!.records]);
    expect(steps[0]!.text).toBe(`- no longer in the L1 notes: ${gone}\n${plain[0]!.text}`);
    expect(steps[0]!.source).toBe(plain[0]!.source);
    // Never read: the step keeps its batch's own sha, so the synthesis after it skips the batch.
    expect(steps[0]!.sha256).toBe(plain[0]!.sha256);
    expect(steps.slice(1)).toEqual(plain.slice(1));
    // Every held line still said (a rewording counts): nothing retired.
    const said =
      '- [open] Yeah, it does more than just load the theme: it resolves variable references';
    expect(synthesisSteps(memories, byLength, { batchLines: 2, held: said })).toEqual(plain);
    // Nothing left to synthesise from: nothing offered, the L2 stays as it is.
    expect(synthesisSteps([], byLength, { held })).toEqual([]);
  });

  it('keys a retiring first step the log has seen by the L2 it meets and the steps read', () => {
    const plain = synthesisSteps(memories, byLength, { batchLines: 2 });
    const own = plain[0]!.sha256;
    const holds = plain[0]!.text;
    const retiring = `${holds}\n- [bugs] The exporter crashed on an empty schema header`;
    const lacking = plain[0]!.text.split('\n')[0]!;
    const sha = (held: string, seen: Set<string>) =>
      synthesisSteps(memories, byLength, { batchLines: 2, held, seen })[0]!.sha256;
    // Nothing to retire: the batch's own sha, seen or not, whatever of its lines the L2 holds.
    expect(sha(holds, new Set([own]))).toBe(own);
    expect(sha(lacking, new Set([own]))).toBe(own);
    // Retiring, unseen: its own sha (reading it makes the next synthesis skip the batch).
    expect(sha(retiring, new Set())).toBe(own);
    // Retiring, seen: keyed by that L2 and by how many steps the synthesis has read, so a
    // recurring L2 is met anew and an unchanged one is not.
    const once = new Set([own]);
    const twice = new Set([own, 'another step read since']);
    expect(sha(retiring, once)).not.toBe(own);
    expect(sha(retiring, once)).toBe(sha(retiring, new Set(once)));
    expect(sha(retiring, twice)).not.toBe(sha(retiring, once));
    expect(sha(`${retiring} too`, once)).not.toBe(sha(retiring, once));
    // The later batches keep their own shas.
    expect(
      synthesisSteps(memories, byLength, { batchLines: 2, held: retiring, seen: once }).slice(1),
    ).toEqual(plain.slice(1));
  });

  it('never offers a line a tombstone refuses, and retires its L2 copy', () => {
    const forgotten = 'setTheme returns an error instead of logging';
    const steps = synthesisSteps(memories, byLength, {
      batchLines: 2,
      held: `- [decisions] ${forgotten}`,
      refuses: (line) => line === forgotten,
    });
    // Its only held line retired: the retirement rides in the first batch's step, ahead of the
    // lines that take its place.
    expect(steps[0]!.records[0]).toEqual({ role: 'retired', text: `[decisions] ${forgotten}` });
    expect(steps[0]!.records.slice(1).map((r) => r.role)).toEqual(['memory', 'memory']);
    const offered = steps.flatMap((s) =>
      s.records.filter((r) => r.role === 'memory').map((r) => r.text),
    );
    expect(offered.some((line) => line.includes('setTheme'))).toBe(false);
  });
});
