import { describe, expect, it } from 'vitest';
import { contentSha256, parsePayload, toolResultSignatures, type Payload } from '@mem/core';
import type { Controller } from './controller.js';
import { GatedRun, type LoopStep } from './loop.js';
import { chunkSignatures, signaturesOfLine } from './line-signatures.js';
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

describe('a line drawn chunks after the failure it names', () => {
  const failing = (source: string): LoopStep => ({ ...failingStep(), source });
  const later = (text: string, source: string): LoopStep => ({ ...plainStep(text), source });
  const closedThenOpen = (memory: string): Controller => {
    let asked = 0;
    return {
      ...scripted([]),
      async answer() {
        asked += 1;
        const update = asked > 1;
        return {
          text: formatGateAnswer({ think: 'x', update, memory: update ? memory : '', exit: false }),
          latencyMs: 1,
        };
      },
    };
  };
  const runOf = (controller: Controller) =>
    new GatedRun({
      level: 'L1',
      runId: 'run-1',
      queryId: 'bugs',
      question: 'What broke?',
      controller,
      tokenizer: { name: 'w', count: (t: string) => t.split(/\s+/).length },
      memoryBudget: 200,
      chunkTokens: 5000,
      actOnExit: false,
    });
  const line =
    '`npm ci` failed with "npm ERR! ERESOLVE unable to resolve dependency tree"; fixed: pinned react 18';

  it('names it when the failure was an earlier chunk of the same transcript', async () => {
    const run = runOf(closedThenOpen(`- ${line}`));
    const out = [
      ...(await run.offer(failing('claude:s1'))),
      ...(await run.offer(later('rerun passed', 'claude:s1'))),
      ...run.finish(),
    ];
    for (const p of out) parsePayload(p);
    const [memory] = memoriesOf(out);
    expect(memory!.lines[0]!.signatures?.map((s) => s.signature)).toContain(
      'npm ERR! ERESOLVE unable to resolve dependency tree',
    );
  });

  it('never borrows a failure from another transcript', async () => {
    const run = runOf(closedThenOpen(`- ${line}`));
    const out = [
      ...(await run.offer(failing('claude:s1'))),
      ...(await run.offer(later('rerun passed', 'claude:s2'))),
      ...run.finish(),
    ];
    const [memory] = memoriesOf(out);
    expect(memory!.lines[0]!.signatures).toBeUndefined();
  });
});

describe('signaturesOfLine', () => {
  // pi-mono-large-session, t96 of the demo: the tsc failure and the line the heuristic drew.
  const chunk = chunkSignatures([
    {
      role: 'tool_result',
      text: `bash error:\nsrc/theme/theme.ts(3,10): error TS2305: Module '"@mariozechner/pi-tui"' has no exported member 'EditorTheme'.`,
    },
  ]);

  it('ties a line that says something failed to the error whose own words it uses', () => {
    expect(
      signaturesOfLine(
        "The build is failing because the TUI package hasn't exported the theme interfaces.",
        chunk,
      ).map((s) => s.sig_sha),
    ).toEqual([chunk[0]!.sigSha]);
  });

  it('leaves a line that shares words but states no failure, or states another one', () => {
    expect(
      signaturesOfLine('The theme interfaces are exported from the TUI package.', chunk),
    ).toEqual([]);
    expect(signaturesOfLine('The editor tests failed on a timeout.', chunk)).toEqual([]);
  });
});
