import { describe, expect, it } from 'vitest';
import { contentSha256, parsePayload, type Payload } from '@mem/core';
import type { Controller, ControllerInput } from './controller.js';
import { GatedRun, type LoopStep, type RunConfig } from './loop.js';
import { formatGateAnswer } from './protocol.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

function step(text: string, source = 'claude:s1'): LoopStep {
  return {
    text,
    records: [{ role: 'assistant', text }],
    sha256: contentSha256(text),
    source,
    span: [0, 1],
  };
}

/** A controller that replays scripted answers and records what it was asked. */
function scripted(
  answers: string[],
  options: Partial<Controller> = {},
): Controller & { asked: ControllerInput[] } {
  const asked: ControllerInput[] = [];
  return {
    name: 'scripted',
    model: 'scripted',
    maxAttempts: 1,
    strictBudget: false,
    ...options,
    asked,
    async answer(input) {
      asked.push(input);
      const text = answers.shift();
      if (text === undefined) throw new Error('script exhausted');
      return { text, latencyMs: 1 };
    },
  };
}

const open = (memory: string, exit = false) =>
  formatGateAnswer({ think: 'evidence', update: true, memory, exit });
const closed = (exit = false) =>
  formatGateAnswer({ think: 'noise', update: false, memory: '', exit });

function config(controller: Controller, overrides: Partial<RunConfig> = {}): RunConfig {
  return {
    level: 'L1',
    runId: 'run-1',
    queryId: 'infra',
    question: 'What broke?',
    controller,
    tokenizer: words,
    memoryBudget: 50,
    chunkTokens: 5000,
    actOnExit: false,
    ...overrides,
  };
}

async function drive(run: GatedRun, steps: LoopStep[]): Promise<Payload[]> {
  const out: Payload[] = [];
  for (const s of steps) out.push(...(await run.offer(s)));
  out.push(...run.finish());
  for (const p of out) parsePayload(p); // every emitted payload is a valid catalogue event
  return out;
}

describe('GatedRun', () => {
  it('scrubs a memory the model wrote with a secret in it before hashing it, so the log accepts it', async () => {
    const leaked = '- the deploy used mysql -u root -phunter22x shop';
    const run = new GatedRun(config(scripted([open(leaked)])));
    const events = await drive(run, [step('a deploy story')]);
    const memory = events.find((e) => e.type === 'memory')!;
    const scrubbed = '- the deploy used mysql -u root -p[REDACTED:password] shop';
    expect(memory).toMatchObject({ text: scrubbed, sha256: contentSha256(scrubbed) });
    expect(events.at(-1)).toMatchObject({
      type: 'run_end',
      final_memory_sha: contentSha256(scrubbed),
    });
  });

  it('keeps memory unchanged and writes no evidence when the update gate is closed', async () => {
    const controller = scripted([
      open('- kong buffered bodies'),
      closed(),
      open('- kong buffered bodies\n- pg raced its mount'),
    ]);
    const run = new GatedRun(config(controller));
    const events = await drive(run, [step('a kong story'), step('ls output'), step('a pg story')]);
    expect(events.map((e) => e.type)).toEqual([
      'run',
      'chunk',
      'gate',
      'evidence',
      'memory',
      'chunk',
      'gate',
      'chunk',
      'gate',
      'evidence',
      'memory',
      'run_end',
    ]);
    // The closed step saw the memory of step 1, and step 3 saw the same memory: nothing changed it.
    expect(controller.asked[1]!.memory).toBe('- kong buffered bodies');
    expect(controller.asked[2]!.memory).toBe('- kong buffered bodies');
    const memories = events.filter((e) => e.type === 'memory');
    expect(memories[1]!.parents).toEqual([
      contentSha256('a kong story'),
      contentSha256('a pg story'),
    ]);
    const end = events.at(-1)!;
    expect(end).toMatchObject({
      type: 'run_end',
      chunks_seen: 3,
      chunks_used: 2,
      final_memory_sha: contentSha256('- kong buffered bodies\n- pg raced its mount'),
    });
    expect(run.summary()).toMatchObject({ chunksSeen: 3, chunksUsed: 2 });
  });

  it('names as parents exactly the chunks the current lines came from (a dropped line takes its parent with it)', async () => {
    const controller = scripted([
      open('- a fact'),
      open('- a fact\n- b fact'),
      open('- b fact\n- c fact'),
    ]);
    const events = await drive(new GatedRun(config(controller)), [
      step('chunk a'),
      step('chunk b'),
      step('chunk c'),
    ]);
    const parents = events
      .filter((e) => e.type === 'memory')
      .map((e) => (e.type === 'memory' ? e.parents : []));
    const [a, b, c] = ['chunk a', 'chunk b', 'chunk c'].map(contentSha256);
    expect(parents).toEqual([[a], [a, b], [b, c]]);
  });

  it('writes nothing when every chunk was seen before (a re-run over the same sources)', async () => {
    const steps = [step('a'), step('b')];
    const run = new GatedRun(config(scripted([]), { seen: new Set(steps.map((s) => s.sha256)) }));
    expect(await drive(run, steps)).toEqual([]);
    expect(run.summary()).toMatchObject({ started: false, chunksSkipped: 2 });
  });

  it('continues from the previous memory and only reads new chunks', async () => {
    const old = step('old chunk');
    const controller = scripted([open('- old fact\n- new fact')]);
    const run = new GatedRun(
      config(controller, {
        previous: { text: '- old fact', parents: [old.sha256] },
        seen: new Set([old.sha256]),
      }),
    );
    const events = await drive(run, [old, step('new chunk')]);
    expect(controller.asked).toHaveLength(1);
    expect(controller.asked[0]!.memory).toBe('- old fact');
    expect(events.find((e) => e.type === 'memory')).toMatchObject({
      t: 1,
      parents: [old.sha256, contentSha256('new chunk')],
    });
  });

  it('records the exit gate at L1 without acting on it, and stops on it at L2', async () => {
    const l1 = new GatedRun(config(scripted([closed(true), closed(true)])));
    const l1Events = await drive(l1, [step('a'), step('b')]);
    expect(
      l1Events.filter((e) => e.type === 'gate').map((e) => e.type === 'gate' && e.exit),
    ).toEqual([true, true]);
    expect(l1.summary()).toMatchObject({ chunksSeen: 2, exited: false });

    const controller = scripted([open('- state', true)]);
    const l2 = new GatedRun(config(controller, { level: 'L2', queryId: null, actOnExit: true }));
    const l2Events = await drive(l2, [
      step('L1 memory one', 'L1:a'),
      step('L1 memory two', 'L1:b'),
    ]);
    expect(controller.asked).toHaveLength(1);
    expect(l2Events.map((e) => e.type)).toEqual(['run', 'chunk', 'gate', 'memory', 'run_end']);
    expect(l2Events[1]).toMatchObject({ level: 'L1', span: [0, 1] });
    expect(l2.summary()).toMatchObject({ exited: true, chunksSeen: 1 });
  });

  it('retries a malformed answer, then ends the run with the error and leaves the chunk unrecorded', async () => {
    const controller = scripted(['garbage', 'still garbage', '<think/>'], { maxAttempts: 3 });
    const run = new GatedRun(config(controller));
    const events = await drive(run, [step('a'), step('b')]);
    expect(controller.asked).toHaveLength(3);
    expect(events.map((e) => e.type)).toEqual(['run', 'run_end']);
    expect(events[1]).toMatchObject({ chunks_seen: 0, error: { code: 'MALFORMED_ANSWER' } });
    expect(run.done).toBe(true);
  });

  it('refuses an over-budget update from a strict controller', async () => {
    const long = `- ${'word '.repeat(60)}`;
    const run = new GatedRun(
      config(scripted([open(long), open(long)], { strictBudget: true, maxAttempts: 2 })),
    );
    const events = await drive(run, [step('a')]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', error: { code: 'BUDGET_EXCEEDED' } });
  });

  it('records a derived chunk without asking the gate', async () => {
    const controller = scripted([]);
    const run = new GatedRun(config(controller));
    const events = await drive(run, [{ ...step('a skill body'), derived: true }]);
    expect(controller.asked).toHaveLength(0);
    expect(events.map((e) => e.type)).toEqual(['run', 'chunk', 'run_end']);
    expect(events[1]).toMatchObject({ derived: true });
    expect(events[2]).toMatchObject({ chunks_seen: 0, chunks_used: 0 });
  });
});

describe('GatedRun memory lines', () => {
  it('gives each line the chunk that brought it, and a kept line keeps its own parents', async () => {
    const controller = scripted([
      open('- kong buffered bodies'),
      open('- kong buffered bodies\n- pg raced its mount'),
    ]);
    const [a, b] = [step('kong story'), step('pg story')];
    const events = await drive(new GatedRun(config(controller)), [a, b]);
    const memories = events.filter((e) => e.type === 'memory');
    expect(memories[1]).toMatchObject({
      parents: [a.sha256, b.sha256],
      lines: [
        { sha256: contentSha256('kong buffered bodies'), parents: [a.sha256] },
        { sha256: contentSha256('pg raced its mount'), parents: [b.sha256] },
      ],
    });
  });

  it('continues from a previous memory with the per-line parents the store recorded', async () => {
    const [e1, e2] = [contentSha256('e1'), contentSha256('e2')];
    const previous = {
      text: '- kong buffered bodies\n- pg raced',
      parents: [e1, e2],
      lines: [
        { text: 'kong buffered bodies', parents: [e1] },
        { text: 'pg raced', parents: [e2] },
      ],
    };
    const controller = scripted([open('- pg raced\n- redis evicted keys')]);
    const c = step('redis story');
    const events = await drive(new GatedRun(config(controller, { previous })), [c]);
    expect(events.find((e) => e.type === 'memory')).toMatchObject({
      parents: [e2, c.sha256],
      lines: [
        { sha256: contentSha256('pg raced'), parents: [e2] },
        { sha256: contentSha256('redis evicted keys'), parents: [c.sha256] },
      ],
    });
  });
});
