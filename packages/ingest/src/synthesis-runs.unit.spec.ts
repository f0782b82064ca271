import { describe, expect, it } from 'vitest';
import { contentSha256, splitMemoryLines, type Payload } from '@mem/core';
import {
  GatedRun,
  synthesisController,
  synthesisPriority,
  type PreviousMemory,
} from '@mem/extractor';
import {
  retirements,
  synthesisSteps,
  type L2Version,
  type SynthesisInput,
} from './synthesis-steps.js';

/*
 * Synthesis runs one after another, as `mem synthesize` does after each ingest: each reads the
 * current L1 memories into steps (synthesisSteps), the gated loop runs them through the embedded
 * synthesis controller from the L2 memory the last run left, and skips the steps a run has seen.
 * The whole pass without the engine: what the L2 holds after each run and which steps updated.
 */
const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const question =
  'What is the current state of this project, and what should someone know before working on it?';

const memory = (queryId: string, lines: string[]): SynthesisInput => {
  const text = lines.map((l) => `- ${l}`).join('\n');
  return { queryId, sha256: contentSha256(text), text };
};

interface State {
  previous: PreviousMemory | null;
  seen: Set<string>;
  /** The L2 chain with the L1 lines of each write, as the engine's store holds it. */
  chain?: L2Version[];
}

async function synthesizeOnce(memories: SynthesisInput[], state: State, budget: number) {
  const steps = synthesisSteps(memories, synthesisPriority(question), {
    fill: { tokens: budget, count: words.count },
    held: state.previous?.text ?? '',
    seen: state.seen,
    retired: retirements(state.chain ?? []),
  });
  const run = new GatedRun({
    level: 'L2',
    runId: `synthesis-${state.seen.size}`,
    queryId: null,
    question,
    controller: synthesisController(words),
    tokenizer: words,
    memoryBudget: budget,
    chunkTokens: 1_000,
    actOnExit: true,
    previous: state.previous,
    seen: state.seen,
  });
  const events: Payload[] = [];
  for (const step of steps) events.push(...(await run.offer(step)));
  events.push(...run.finish());
  for (const e of events) if (e.type === 'chunk') state.seen.add(e.sha256);
  const text = run.summary().memory?.text;
  if (text !== undefined) state.previous = { text, parents: [] };
  if (text !== undefined && text !== state.chain?.at(-1)?.text)
    (state.chain ??= []).push({
      text,
      l1: memories.flatMap((m) => splitMemoryLines(m.text).map((l) => `[${m.queryId}] ${l}`)),
    });
  return {
    started: run.summary().started,
    updates: events.flatMap((e) => (e.type === 'gate' ? [e.update] : [])),
    lines: splitMemoryLines(text ?? ''),
  };
}

const crash =
  'The theme loader crashed on an invalid hex colour at hexToRgb; fixed by falling back to the dark theme';
const lockfile =
  'The build broke on a missing lockfile; the root cause was a stale cache, fixed by npm ci';
const retries = 'The sync error was caused by a timeout in the retry loop; fixed with a backoff';

describe('synthesis runs after each ingest', () => {
  it('takes out of the L2 a line the L1 notes evicted, in one update, and then writes nothing', async () => {
    const state: State = { previous: null, seen: new Set() };
    const first = await synthesizeOnce(
      [
        memory('bugs', [crash, lockfile]),
        memory('decisions', ['Themes are JSON files under ~/.pi/themes']),
      ],
      state,
      200,
    );
    expect(first.lines).toContain(`[bugs] ${lockfile}`);
    // The bugs note evicted the lockfile line; nothing else changed.
    const second = await synthesizeOnce(
      [memory('bugs', [crash]), memory('decisions', ['Themes are JSON files under ~/.pi/themes'])],
      state,
      200,
    );
    expect(second.lines).not.toContain(`[bugs] ${lockfile}`);
    expect([...second.lines].sort()).toEqual([
      `[bugs] ${crash}`,
      '[decisions] Themes are JSON files under ~/.pi/themes',
    ]);
    // The retirement and the refill in one step: one write, one change a reader sees.
    expect(second.updates).toEqual([true]);
    // The same notes again: every step was seen, the run never starts.
    const third = await synthesizeOnce(
      [memory('bugs', [crash]), memory('decisions', ['Themes are JSON files under ~/.pi/themes'])],
      state,
      200,
    );
    expect(third.started).toBe(false);
  });

  it('fills the room an evicted line leaves with the next best line of the notes', async () => {
    const state: State = { previous: null, seen: new Set() };
    const budget = words.count(`- [bugs] ${crash}\n- [bugs] ${lockfile}`) + 2;
    const first = await synthesizeOnce([memory('bugs', [crash, lockfile, retries])], state, budget);
    // Room for two of the three: the third waits in the notes.
    expect(first.lines).toHaveLength(2);
    const [kept, evicted] = first.lines as [string, string];
    const waiting = [crash, lockfile, retries].find((l) => !first.lines.includes(`[bugs] ${l}`))!;
    const after = await synthesizeOnce(
      [
        memory(
          'bugs',
          [kept, waiting].map((l) => l.replace(/^\[bugs\] /, '')),
        ),
      ],
      state,
      budget,
    );
    expect(after.lines).not.toContain(evicted);
    expect([...after.lines].sort()).toEqual([kept, `[bugs] ${waiting}`].sort());
  });

  it('lets a later L1 line stronger than the weakest L2 line displace it', async () => {
    const state: State = { previous: null, seen: new Set() };
    const held = [memory('bugs', [crash, lockfile])];
    const budget = words.count(`- [bugs] ${crash}\n- [bugs] ${lockfile}`) + 1;
    await synthesizeOnce(held, state, budget);
    // A standing rule of the project arrives in a later session: the L2 holds none, and a
    // second past incident is its weakest line.
    const rule = 'Always run npm run check before a commit';
    const later = await synthesizeOnce(
      [memory('bugs', [crash, lockfile]), memory('decisions', [rule])],
      state,
      budget,
    );
    expect(later.updates.filter(Boolean)).toHaveLength(1);
    expect(later.lines).toEqual([`[bugs] ${crash}`, `[decisions] ${rule}`]);
  });

  it('keeps the L2 as it is when a later run brings only weaker lines', async () => {
    const state: State = { previous: null, seen: new Set() };
    const budget = words.count(`- [bugs] ${crash}\n- [bugs] ${lockfile}`) + 1;
    await synthesizeOnce([memory('bugs', [crash, lockfile])], state, budget);
    const before = state.previous!.text;
    const later = await synthesizeOnce(
      [memory('bugs', [crash, lockfile, 'the crash might be caused by a stale cache somewhere'])],
      state,
      budget,
    );
    expect(later.started).toBe(true);
    expect(later.updates.some(Boolean)).toBe(false);
    expect(state.previous!.text).toBe(before);
  });

  it('takes every held line out in one synthesis when the L1 notes evicted them all', async () => {
    const state: State = { previous: null, seen: new Set() };
    await synthesizeOnce([memory('bugs', [lockfile])], state, 200);
    expect(splitMemoryLines(state.previous!.text)).toEqual([`[bugs] ${lockfile}`]);
    // The bugs note now holds only other lines: the L2's only line has no evidence left.
    const after = await synthesizeOnce([memory('bugs', [crash, retries])], state, 200);
    expect([...after.lines].sort()).toEqual([`[bugs] ${crash}`, `[bugs] ${retries}`].sort());
    expect(after.updates.filter(Boolean)).toHaveLength(1);
    // Nothing new: the step that retired the line is keyed so the next synthesis skips it.
    const again = await synthesizeOnce([memory('bugs', [crash, retries])], state, 200);
    expect(again.started).toBe(false);
  });

  it('retires a line again after it came back (a question answered, asked again, answered again)', async () => {
    const state: State = { previous: null, seen: new Set() };
    const question = 'Open: Should `mem verify` exit 3 when only the vault is stale?';
    const rule = 'Always run npm run check before a commit';
    const asked = await synthesizeOnce(
      [memory('open', [question]), memory('bugs', [crash])],
      state,
      200,
    );
    expect(asked.lines).toContain(`[open] ${question}`);
    const answered = await synthesizeOnce([memory('bugs', [crash])], state, 200);
    expect(answered.lines).toEqual([`[bugs] ${crash}`]);
    const askedAgain = await synthesizeOnce(
      [memory('open', [question]), memory('bugs', [crash, lockfile])],
      state,
      200,
    );
    expect(askedAgain.lines).toContain(`[open] ${question}`);
    // The same line retired a second time: the step offers the same retiring line, and still
    // must be read.
    const answeredAgain = await synthesizeOnce([memory('bugs', [crash, lockfile])], state, 200);
    expect([...answeredAgain.lines].sort()).toEqual([`[bugs] ${lockfile}`, `[bugs] ${crash}`]);
    const later = await synthesizeOnce(
      [memory('bugs', [crash, lockfile]), memory('decisions', [rule])],
      state,
      200,
    );
    expect(later.lines).not.toContain(`[open] ${question}`);
    expect(later.lines).toContain(`[decisions] ${rule}`);
    const unchanged = await synthesizeOnce(
      [memory('bugs', [crash, lockfile]), memory('decisions', [rule])],
      state,
      200,
    );
    expect(unchanged.started).toBe(false);
  });

  it('reads again a batch the log has seen when a line the L2 retired comes back into it', async () => {
    const state: State = { previous: null, seen: new Set() };
    const question = 'Open: Should `mem verify` exit 3 when only the vault is stale?';
    const notes = [memory('open', [question]), memory('bugs', [crash])];
    const asked = await synthesizeOnce(notes, state, 200);
    expect(asked.lines).toContain(`[open] ${question}`);
    const answered = await synthesizeOnce([memory('bugs', [crash])], state, 200);
    expect(answered.lines).toEqual([`[bugs] ${crash}`]);
    // Asked again in the same words beside the same line: the batch's text is one the log has
    // seen, and the L2 lacks its line.
    const askedAgain = await synthesizeOnce(notes, state, 200);
    expect(askedAgain.lines).toContain(`[open] ${question}`);
    expect(askedAgain.updates).toEqual([true]);
    const unchanged = await synthesizeOnce(notes, state, 200);
    expect(unchanged.started).toBe(false);
    // Answered and asked again once more: one more retirement, read once more.
    await synthesizeOnce([memory('bugs', [crash])], state, 200);
    const third = await synthesizeOnce(notes, state, 200);
    expect(third.lines).toContain(`[open] ${question}`);
    expect((await synthesizeOnce(notes, state, 200)).started).toBe(false);
  });

  it('does not read again a seen batch whose line the L2 let go for room', async () => {
    const state: State = { previous: null, seen: new Set() };
    // A budget for two lines: the third, weakest, is let go for room, never retired.
    const notes = [memory('bugs', [crash, lockfile, retries])];
    const first = await synthesizeOnce(notes, state, 40);
    expect(first.lines.length).toBeLessThan(3);
    const again = await synthesizeOnce(notes, state, 40);
    expect(again.started).toBe(false);
  });
});
