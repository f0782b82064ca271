import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { SIGNATURE_LINE_CAP } from './normalise.js';
import { logSignatures, readFailingResult, toolResultSignatures } from './tool-result.js';

const shas = (text: string) => toolResultSignatures(text).map((s) => s.sigSha);

// Failing tool results as the sources render them, copied from test/fixtures/transcripts.
const REAL = {
  // claude fe5e1c67…/sidechain, lines 78 and 155: one failure, two tools.
  editNotRead:
    'Edit error:\n<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
  writeNotRead:
    'Write error:\n<tool_use_error>File has not been read yet. Read it first before writing to it.</tool_use_error>',
  // pi-mono-compact line 922 (run from packages/agent) and the same tsc error run from
  // packages/coding-agent later in that session: the path differs with the cwd.
  loadModelFromAgent:
    "bash error:\n\n> pi-monorepo@0.0.3 check\n> biome check --write . && npm run check --workspaces --if-present && tsgo --noEmit\n\nChecked 286 files in 157ms. Fixed 1 file.\n\n> @mariozechner/pi-agent-core@0.27.5 check\n> tsgo --noEmit\n\n../coding-agent/src/core/agent-session.ts(1330,42): error TS2339: Property 'loadModel' does not exist on type 'SessionManager'.\nnpm error Lifecycle script `check` failed with error:\nnpm error code 2\nnpm error path /Users/badlogic/workspaces/pi-mono/packages/agent\nnpm error workspace @mariozechner/pi-agent-core@0.27.5\nnpm error location /Users/badlogic/workspaces/pi-mono/packages/agent\nnpm error command failed\nnpm error command sh -c tsgo --noEmit",
  loadModelFromCodingAgent:
    "bash error:\n\n> pi-monorepo@0.0.3 check\n> tsgo --noEmit && tsgo -p tsconfig.examples.json\n\nsrc/core/agent-session.ts(1330,42): error TS2339: Property 'loadModel' does not exist on type 'SessionManager'.\nnpm error Lifecycle script `check` failed with error:\nnpm error code 2\nnpm error path /Users/badlogic/workspaces/pi-mono/packages/coding-agent",
  // pi-mono-compact line 465 and pi-mono-session line 421: one error code, two different files.
  enoentChangelog:
    "read error:\nENOENT: no such file or directory, access '/Users/badlogic/workspaces/pi-mono/packages/tui/CHANGELOG.md'",
  enoentIndexHtml:
    "read error:\nENOENT: no such file or directory, access '/Users/badlogic/workspaces/pi-mono/shittycodingagent.ai/src/index.html'",
  // pi bash executions that say only that they failed.
  exitOnly: 'bash error:\n(no output)\n\nCommand exited with code 1',
};

describe('readFailingResult', () => {
  it('reads a failing result by its header or a non-zero exit trailer, and nothing else', () => {
    expect(readFailingResult(REAL.enoentChangelog)?.tool).toBe('read');
    expect(readFailingResult('$ npm ci\nnpm ERR! code ERESOLVE\n(exit 1)')).toEqual({
      tool: undefined,
      salient: ['npm ERR! code ERESOLVE'],
    });
    expect(readFailingResult('Bash result:\nerror: this text mentions an error')).toBeNull();
    expect(readFailingResult('$ make\nbuilt\n(exit 0)')).toBeNull();
  });

  it('skips frames, exit lines and npm trailers, which every failure shares', () => {
    expect(readFailingResult(REAL.loadModelFromAgent)?.salient).toEqual([
      "../coding-agent/src/core/agent-session.ts(1330,42): error TS2339: Property 'loadModel' does not exist on type 'SessionManager'.",
    ]);
    expect(toolResultSignatures(REAL.exitOnly)).toEqual([]);
  });
});

describe('signatures of real failures (test/fixtures/transcripts)', () => {
  it('gives one failure one signature, whichever tool or cwd reported it', () => {
    expect(shas(REAL.editNotRead)).toEqual(shas(REAL.writeNotRead));
    expect(shas(REAL.loadModelFromAgent)).toHaveLength(1);
    expect(shas(REAL.loadModelFromAgent)).toEqual(shas(REAL.loadModelFromCodingAgent));
  });

  it('gives different failures different signatures, even under one error code', () => {
    const all = [
      REAL.editNotRead,
      REAL.loadModelFromAgent,
      REAL.enoentChangelog,
      REAL.enoentIndexHtml,
    ]
      .map(shas)
      .map((s) => s.join());
    expect(new Set(all).size).toBe(4);
  });

  it('finds a tool result’s signature in the raw log of the same failure, without a header', () => {
    const raw =
      "2026-09-02T10:00:01Z $ npm run check\n/home/ci/work/pi-mono/packages/coding-agent/src/core/agent-session.ts(1330,42): error TS2339: Property 'loadModel' does not exist on type 'SessionManager'.\n    at check (/home/ci/work/x.js:1:2)\nCommand exited with code 2";
    expect(logSignatures(raw).map((s) => s.sigSha)).toContain(shas(REAL.loadModelFromAgent)[0]);
  });
});

describe('adversarial input', () => {
  // No timing assertion: a quadratic rule on these inputs runs for minutes and fails the test by
  // its timeout; the bounded prefix keeps it to one pass.
  it.each([
    ['1 MB of one character', 'a'.repeat(1 << 20)],
    ['1 MB of identifier parts', 'a-'.repeat(1 << 19)],
    ['1 MB of long error lines', `${'error a'.padEnd(4000, 'a')}\n`.repeat(256)],
    ['1 MB of path segments', `/${'x/'.repeat(1 << 19)}`],
  ])('%s: signed in one bounded pass', (_name, body) => {
    for (const text of [`Bash error:\n${body}`, body]) {
      const signatures = text.startsWith('Bash') ? toolResultSignatures(text) : logSignatures(text);
      expect(signatures.length).toBeLessThanOrEqual(6);
      for (const s of signatures) expect(s.raw.length).toBeLessThanOrEqual(SIGNATURE_LINE_CAP);
    }
  });

  it('never throws and is deterministic on any text', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 2000 }), (body) => {
        const text = `Bash error:\n${body}`;
        expect(toolResultSignatures(text)).toEqual(toolResultSignatures(text));
      }),
      { numRuns: 300 },
    );
  });
});
