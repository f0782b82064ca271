import { afterEach, describe, expect, it } from 'vitest';
import { contentSha256, splitMemoryLines, type Payload } from '@mem/core';
import {
  GatedRun,
  RETIRED_MARK,
  formatGateAnswer,
  openaiController,
  synthesisPriority,
  type PreviousMemory,
} from '@mem/extractor';
import { routeUrl } from '@mem/llm';
import { chatReply, fakeOpenai, type SeenRequest } from '../../../test/support/fake-openai.js';
import { synthesisSteps, type SynthesisInput } from './synthesis-steps.js';

/*
 * The openai controller at L2, against a real loopback HTTP server speaking the chat-completions
 * shape: a synthesis that continues from an L2 holding a line no L1 note says any more offers it
 * as retired in the first batch's step (synthesisSteps), and the line leaves the L2 whatever the
 * model answers.
 */
const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const question =
  'What is the current state of this project, and what should someone know before working on it?';

const crash =
  'The theme loader crashed on an invalid hex colour at hexToRgb; fixed by falling back to the dark theme';
const lockfile =
  'The build broke on a missing lockfile; the root cause was a stale cache, fixed by npm ci';
const rule = 'Always run npm run check before a commit';

const memory = (queryId: string, lines: string[]): SynthesisInput => {
  const text = lines.map((l) => `- ${l}`).join('\n');
  return { queryId, sha256: contentSha256(text), text };
};

/** The previous memory and the section of a request, as buildPrompt writes them. */
function parts(request: SeenRequest): { previous: string[]; section: string[] } {
  const messages = request.body['messages'] as { role: string; content: string }[];
  const user = messages.find((m) => m.role === 'user')!.content;
  const [, previous = '', section = ''] =
    /Previous memory:\n([\s\S]*?)\n\nSection:\n([\s\S]*)$/.exec(user) ?? [];
  return {
    previous: previous === '(empty)' ? [] : previous.split('\n'),
    section: section.split('\n'),
  };
}

type Retiring = (previous: string[], retired: string[], added: string[]) => string;

/** A 200 chat-completions answer saying `content` (chatReply's body, as fakeOpenai sends it). */
const reply = (content: string) => ({ json: chatReply(content).body });

/**
 * A model that keeps every line it was shown and adds the section's lines; on the retiring step
 * it answers `retiring` (what the model does with the lines it is told to drop).
 */
function model(retiring: Retiring) {
  return (request: SeenRequest) => {
    const { previous, section } = parts(request);
    const retired = section
      .filter((line) => line.startsWith(`- ${RETIRED_MARK} `))
      .map((line) => `- ${line.slice(`- ${RETIRED_MARK} `.length)}`);
    const added = section.filter(
      (line) => !line.startsWith(`- ${RETIRED_MARK} `) && !previous.includes(line),
    );
    if (retired.length > 0) return reply(retiring(previous, retired, added));
    return reply(
      formatGateAnswer({
        think: 'new lines',
        update: added.length > 0,
        memory: added.length > 0 ? [...previous, ...added].join('\n') : '',
        exit: false,
      }),
    );
  };
}

let server: Awaited<ReturnType<typeof fakeOpenai>> | null = null;
afterEach(async () => {
  await server?.close();
  server = null;
});

/** One synthesis from an L2 that holds the lockfile line, after the bugs note evicted it. */
async function synthesize(
  retiring: Retiring,
  held: string[] = [crash, lockfile],
  notes: SynthesisInput[] = [memory('bugs', [crash]), memory('decisions', [rule])],
) {
  server = await fakeOpenai(model(retiring));
  const controller = openaiController(
    {
      url: routeUrl(server.url, 'chat/completions'),
      model: 'qwen2.5:3b-instruct',
      timeoutMs: 5000,
      retries: 0,
      backoffMs: 5,
    },
    { maxAttempts: 2 },
  );
  const previous: PreviousMemory = {
    text: held.map((line) => `- [bugs] ${line}`).join('\n'),
    parents: [],
  };
  const steps = synthesisSteps(notes, synthesisPriority(question), { held: previous.text });
  const run = new GatedRun({
    level: 'L2',
    runId: 'synthesis-openai',
    queryId: null,
    question,
    controller,
    tokenizer: words,
    memoryBudget: 200,
    chunkTokens: 1_000,
    actOnExit: true,
    previous,
  });
  const events: Payload[] = [];
  for (const step of steps) events.push(...(await run.offer(step)));
  events.push(...run.finish());
  return {
    steps,
    events,
    requests: server.requests,
    memories: events.flatMap((e) => (e.type === 'memory' ? [splitMemoryLines(e.text)] : [])),
    final: splitMemoryLines(run.summary().memory?.text ?? previous.text),
  };
}

const answer = (update: boolean, memory: string[], exit = false) =>
  formatGateAnswer({ think: 'the memory', update, memory: memory.join('\n'), exit });

describe('the openai controller in a synthesis that retires an L2 line', () => {
  it('takes the retired line out when the model keeps it (and asks to end), and fills the room', async () => {
    const { steps, events, requests, memories, final } = await synthesize(
      (previous, _retired, added) => answer(true, [...previous, ...added], true),
    );
    // One step: the retired line ahead of the one batch of the current L1 lines.
    expect(steps).toHaveLength(1);
    expect(steps[0]!.text.split('\n')[0]).toBe(`- ${RETIRED_MARK} [bugs] ${lockfile}`);
    expect(requests).toHaveLength(steps.length);
    // The prompt says what a retired line is and that it leaves.
    const system = (requests[0]!.body['messages'] as { content: string }[])[0]!.content;
    expect(system).toContain(`"- ${RETIRED_MARK} <line>"`);
    for (const lines of memories) expect(lines).not.toContain(`[bugs] ${lockfile}`);
    expect(memories[0]).toEqual([`[bugs] ${crash}`, `[decisions] ${rule}`]);
    const gate = events.find((e) => e.type === 'gate');
    expect(gate).toMatchObject({ update: true, exit: false });
    expect(gate?.type === 'gate' && gate.think).toMatch(/1 line no L1 note holds any more/);
    expect([...final].sort()).toEqual([`[bugs] ${crash}`, `[decisions] ${rule}`]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end' });
    expect(events.at(-1)).not.toHaveProperty('error');
  });

  it('takes it out when the model closes the gate, or keeps a rewording of it', async () => {
    const closed = await synthesize(() => answer(false, []));
    // The closed gate keeps the held lines less the retired one, and refuses the batch's new line.
    expect(closed.memories).toEqual([[`[bugs] ${crash}`]]);
    expect(closed.final).toEqual([`[bugs] ${crash}`]);
    await server?.close();
    server = null;
    const reworded = await synthesize((previous) =>
      answer(true, [
        previous[0]!,
        '- [bugs] The build broke on a missing lockfile: the root cause was a stale cache, and npm ci fixed it',
      ]),
    );
    expect(reworded.memories[0]).toEqual([`[bugs] ${crash}`]);
    expect(reworded.final.some((line) => line.includes('lockfile'))).toBe(false);
  });

  it('leaves the L2 the same lines when the model drops the retired line itself', async () => {
    const { memories, final } = await synthesize((previous, retired, added) =>
      answer(true, [...previous.filter((line) => !retired.includes(line)), ...added]),
    );
    expect(memories).toHaveLength(1);
    expect([...final].sort()).toEqual([`[bugs] ${crash}`, `[decisions] ${rule}`]);
  });

  it('refuses a malformed answer to the retiring step as any other (MALFORMED_ANSWER), writing no memory', async () => {
    const { events, requests } = await synthesize(() => 'Sure, I dropped the lockfile line.');
    expect(requests).toHaveLength(2);
    expect(events.some((e) => e.type === 'memory')).toBe(false);
    expect(events.at(-1)).toMatchObject({
      type: 'run_end',
      error: { code: 'MALFORMED_ANSWER' },
    });
  });

  it('takes it out when it was the only held line, in the step whose lines take its place', async () => {
    const { steps, memories, final } = await synthesize(
      (previous, _retired, added) => answer(true, [...previous, ...added]),
      [lockfile],
      [memory('bugs', [crash]), memory('decisions', [rule])],
    );
    expect(steps[0]!.records.map((r) => r.role)).toEqual(['retired', 'memory', 'memory']);
    expect([...memories[0]!].sort()).toEqual([`[bugs] ${crash}`, `[decisions] ${rule}`]);
    expect([...final].sort()).toEqual([`[bugs] ${crash}`, `[decisions] ${rule}`]);
  });

  it("writes the step's own lines when the model closes the gate on the only held line", async () => {
    const closed = await synthesize(() => answer(false, []), [lockfile]);
    // One ask, no refusal: the retired line leaves, the lines the step offers take its place.
    expect(closed.requests).toHaveLength(1);
    expect([...closed.final].sort()).toEqual([`[bugs] ${crash}`, `[decisions] ${rule}`]);
    const gate = closed.events.find((e) => e.type === 'gate');
    expect(gate).toMatchObject({ update: true, exit: false });
    expect(gate?.type === 'gate' && gate.think).toMatch(/the step's own lines written/);
    expect(closed.events.at(-1)).not.toHaveProperty('error');
    // A model that keeps only the retired line: the same.
    await server?.close();
    server = null;
    const kept = await synthesize((previous) => answer(true, previous), [lockfile]);
    expect([...kept.final].sort()).toEqual([`[bugs] ${crash}`, `[decisions] ${rule}`]);
  });
});
