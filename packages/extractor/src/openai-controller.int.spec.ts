import { afterEach, describe, expect, it } from 'vitest';
import { contentSha256, nearDuplicate, parsePayload, type Payload } from '@mem/core';
import { routeUrl } from '@mem/llm';
import { FakeOpenAI, chatReply, type FakeReply } from '../../../test/support/fake-openai.js';
import { GatedRun, type LoopStep } from './loop.js';
import { openaiController } from './openai-controller.js';
import { formatGateAnswer, parseGateAnswer } from './protocol.js';
import { RETIRED_MARK, RETIRED_ROLE } from './synthesis/controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const good = formatGateAnswer({
  think: 'a root cause',
  update: true,
  memory: '- kong buffered bodies over 10KB',
  exit: false,
});

function step(text: string): LoopStep {
  return {
    text,
    records: [{ role: 'assistant', text }],
    sha256: contentSha256(text),
    source: 'claude:s1',
    span: [0, 1],
  };
}

let server: FakeOpenAI | null = null;
afterEach(async () => {
  await server?.stop();
  server = null;
});

async function runWith(
  script: FakeReply[],
  options: {
    timeoutMs?: number;
    retries?: number;
    maxAttempts?: number;
    refuses?: (line: string) => boolean;
  } = {},
) {
  server = new FakeOpenAI(script);
  const base = await server.start();
  const controller = openaiController(
    {
      url: routeUrl(base, 'chat/completions'),
      model: 'qwen2.5:3b-instruct',
      key: 'sk-test-key',
      timeoutMs: options.timeoutMs ?? 2000,
      retries: options.retries ?? 2,
      backoffMs: 5,
    },
    { maxAttempts: options.maxAttempts ?? 2 },
  );
  const run = new GatedRun({
    level: 'L1',
    runId: 'run-openai',
    queryId: 'infra',
    question: 'What broke?',
    controller,
    tokenizer: words,
    memoryBudget: 40,
    chunkTokens: 5000,
    actOnExit: false,
    ...(options.refuses ? { refuses: options.refuses } : {}),
  });
  const events: Payload[] = [
    ...(await run.offer(step('Kong buffered the body; setting proxy-body-size fixed it.'))),
  ];
  events.push(...run.finish());
  for (const e of events) parsePayload(e);
  return { events, requests: server.requests, summary: run.summary() };
}

describe('openai controller against a fake OpenAI-compatible server', () => {
  it('sends the model, the prompt and the key as apikey and Bearer, and records the answer', async () => {
    const { events, requests } = await runWith([chatReply(good)]);
    expect(requests).toHaveLength(1);
    expect(requests[0]!.path).toBe('/v1/chat/completions');
    expect(requests[0]!.headers['apikey']).toBe('sk-test-key');
    expect(requests[0]!.headers['authorization']).toBe('Bearer sk-test-key');
    expect((requests[0]!.body as { model: string }).model).toBe('qwen2.5:3b-instruct');
    expect(events.map((e) => e.type)).toEqual([
      'run',
      'chunk',
      'gate',
      'evidence',
      'memory',
      'run_end',
    ]);
    expect(events[0]).toMatchObject({ model: 'qwen2.5:3b-instruct' });
    const gate = events[2]!;
    expect(gate.type === 'gate' && gate.latency_ms).toBeGreaterThan(0);
  });

  it('re-asks after a malformed answer and keeps the good one', async () => {
    const { events, requests } = await runWith([
      chatReply('Sure! The memory is: kong.'),
      chatReply(good),
    ]);
    expect(requests).toHaveLength(2);
    expect(events.find((e) => e.type === 'memory')).toMatchObject({
      text: '- kong buffered bodies over 10KB',
    });
  });

  it('stores a non-bullet multi-line answer as one `- ` line per fact, each addressable', async () => {
    const prose = formatGateAnswer({
      think: 'a cause and its fix',
      update: true,
      memory:
        'Kong buffered request bodies over 10KB.\n\n  The fix was proxy-body-size: 0 on the ingress.\n* Uploads work again.',
      exit: false,
    });
    const { events } = await runWith([chatReply(prose)]);
    const memory = events.find((e) => e.type === 'memory');
    expect(memory).toMatchObject({
      text: '- Kong buffered request bodies over 10KB.\n- The fix was proxy-body-size: 0 on the ingress.\n- Uploads work again.',
    });
    expect(memory?.type === 'memory' && memory.lines).toHaveLength(3);
  });

  it('ends the run with the error after bounded malformed answers, never guessing', async () => {
    const { events, requests } = await runWith([chatReply('no tags at all')], { maxAttempts: 3 });
    expect(requests).toHaveLength(3);
    expect(events.map((e) => e.type)).toEqual(['run', 'run_end']);
    expect(events[1]).toMatchObject({
      chunks_seen: 0,
      final_memory_sha: null,
      error: { code: 'MALFORMED_ANSWER' },
    });
  });

  it('refuses an update over the memory budget', async () => {
    const long = formatGateAnswer({
      think: 'x',
      update: true,
      memory: `- ${'word '.repeat(80)}`,
      exit: false,
    });
    const { events } = await runWith([chatReply(long)]);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', error: { code: 'BUDGET_EXCEEDED' } });
  });

  it('retries 429 (honouring Retry-After) and 5xx with backoff, then succeeds', async () => {
    const { events, requests } = await runWith([
      { status: 429, body: { error: 'slow down' }, headers: { 'retry-after': '0' } },
      { status: 503, body: {} },
      chatReply(good),
    ]);
    expect(requests).toHaveLength(3);
    expect(events.some((e) => e.type === 'memory')).toBe(true);
  });

  it('gives up after the last retry of a 500 and records MODEL_FAILED in run_end', async () => {
    const { events, requests } = await runWith([{ status: 500, body: { error: 'boom' } }], {
      retries: 2,
    });
    expect(requests).toHaveLength(3);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', error: { code: 'MODEL_FAILED' } });
  });

  it('does not retry a 400: the request itself is wrong', async () => {
    const { events, requests } = await runWith([{ status: 400, body: { error: 'bad model' } }], {
      retries: 3,
    });
    expect(requests).toHaveLength(1);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', error: { code: 'MODEL_FAILED' } });
  });

  it('times out a slow answer and records TIMEOUT', async () => {
    const { events, requests } = await runWith([{ delayMs: 400, body: {} }], {
      timeoutMs: 100,
      retries: 1,
    });
    expect(requests).toHaveLength(2);
    expect(events.at(-1)).toMatchObject({ type: 'run_end', error: { code: 'TIMEOUT' } });
  });

  it('at L2 takes out only the retired line, not a held line close to it that the step keeps', async () => {
    const retired = '[bugs] the build broke on a missing lockfile, fixed by npm ci';
    const close =
      '[bugs] the build broke on a missing lockfile, fixed by npm ci after clearing the cache';
    // Near-duplicates are not transitive: the kept line may rest on a current L1 line.
    expect(nearDuplicate(retired, close)).toBe(true);
    const previous = `- ${retired}\n- ${close}`;
    server = new FakeOpenAI([
      chatReply(
        formatGateAnswer({ think: 'kept both', update: true, memory: previous, exit: false }),
      ),
    ]);
    const controller = openaiController({
      url: routeUrl(await server.start(), 'chat/completions'),
      model: 'qwen2.5:3b-instruct',
      timeoutMs: 2000,
      retries: 0,
    });
    const reply = await controller.answer({
      level: 'L2',
      question: 'What should someone know?',
      memory: previous,
      chunk: {
        text: `- ${RETIRED_MARK} ${retired}`,
        records: [{ role: RETIRED_ROLE, text: retired }],
      },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text)).toMatchObject({ update: true, memory: `- ${close}` });
  });

  it('drops a forgotten line the model writes back at L1, and writes no memory of it alone', async () => {
    const forgotten = 'kong buffered bodies over 10KB';
    const refuses = (line: string) => nearDuplicate(line, forgotten);
    const both = formatGateAnswer({
      think: 'a cause and its fix',
      update: true,
      memory: `- Kong buffered bodies over 10KB\n- proxy-body-size: 0 on the ingress fixed the uploads`,
      exit: false,
    });
    const kept = await runWith([chatReply(both)], { refuses });
    expect(kept.events.find((e) => e.type === 'memory')).toMatchObject({
      text: '- proxy-body-size: 0 on the ingress fixed the uploads',
    });
    expect(kept.events.at(-1)).toMatchObject({ type: 'run_end', lines_forgotten: 1 });
    await server?.stop();
    server = null;
    // Only the forgotten line: the gate opened on nothing the memory may hold.
    const alone = await runWith([chatReply(good)], { refuses });
    expect(alone.events.some((e) => e.type === 'memory')).toBe(false);
    expect(alone.summary.memory).toBeNull();
  });
});
