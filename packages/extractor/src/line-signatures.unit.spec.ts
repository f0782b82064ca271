import { describe, expect, it } from 'vitest';
import { contentSha256, parsePayload, toolResultSignatures, type Payload } from '@mem/core';
import type { Controller } from './controller.js';
import { GatedRun, type LoopStep } from './loop.js';
import { formatGateAnswer } from './protocol.js';

const ERESOLVE =
  'Bash error:\nnpm ERR! code ERESOLVE\nnpm ERR! ERESOLVE unable to resolve dependency tree\n(exit 1)';

function failingStep(): LoopStep {
  const records = [
    { role: 'tool_call', text: 'Bash: npm ci' },
    { role: 'tool_result', text: ERESOLVE },
    { role: 'assistant', text: 'Pinning react to 18 fixes the peer conflict.' },
  ];
  const text = records.map((r) => r.text).join('\n');
  return { text, records, sha256: contentSha256(text), source: 'claude:s1', span: [0, 3] };
}

function plainStep(text: string): LoopStep {
  return {
    text,
    records: [{ role: 'assistant', text }],
    sha256: contentSha256(text),
    source: 'claude:s1',
    span: [3, 4],
  };
}

function scripted(memories: string[]): Controller {
  return {
    name: 'scripted',
    model: 'scripted',
    maxAttempts: 1,
    strictBudget: false,
    async answer() {
      const memory = memories.shift()!;
      return {
        text: formatGateAnswer({ think: 'x', update: true, memory, exit: false }),
        latencyMs: 1,
      };
    },
  };
}

const memoriesOf = (out: Payload[]) =>
  out.filter((p): p is Extract<Payload, { type: 'memory' }> => p.type === 'memory');

describe('memory lines carry the failure signatures they were drawn from', () => {
  it('a new line about a failing result names its signatures; an unrelated line and a kept line do not', async () => {
    const run = new GatedRun({
      level: 'L1',
      runId: 'run-1',
      queryId: 'tool-failures',
      question: 'What failed?',
      controller: scripted([
        '- npm ci failed: ERESOLVE unable to resolve dependency tree; the working form pins react 18\n- the team prefers small commits',
        '- npm ci failed: ERESOLVE unable to resolve dependency tree; the working form pins react 18\n- the docs moved to /docs',
      ]),
      tokenizer: { name: 'w', count: (t: string) => t.split(/\s+/).length },
      memoryBudget: 200,
      chunkTokens: 5000,
      actOnExit: false,
    });
    const out = [
      ...(await run.offer(failingStep())),
      ...(await run.offer(plainStep('docs moved'))),
      ...run.finish(),
    ];
    for (const p of out) parsePayload(p);
    const [first, second] = memoriesOf(out);
    const expected = toolResultSignatures(ERESOLVE)
      .filter((s) => s.signature.includes('unable to resolve'))
      .map((s) => ({ sig_sha: s.sigSha, signature: s.signature, tool: 'bash' }));
    expect(expected).toHaveLength(1);
    expect(first!.lines[0]!.signatures).toEqual(expected);
    expect(first!.lines[1]!.signatures).toBeUndefined();
    // Kept from the first memory: its occurrence was named once, by the event that drew it.
    expect(second!.lines[0]!.signatures).toBeUndefined();
    expect(second!.lines[1]!.signatures).toBeUndefined();
  });
});
