import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sha256Hex } from '../identity.js';
import { lineSignatures, normalizeSignature, toolOf } from './normalise.js';

describe('normalizeSignature', () => {
  it.each([
    [
      'npm ERR! ERESOLVE unable to resolve dependency tree',
      'npm ERR! ERESOLVE unable to resolve dependency tree',
    ],
    [
      '2026-08-19T09:12:33.123Z ERROR request failed after 1532ms',
      '<ts> ERROR request failed after <dur>',
    ],
    ['[09:12:33] build failed in 2.5s', '[<time>] build failed in <dur>'],
    ['Aug 19 09:12:33 host kubelet: probe failed', '<date> <time> host kubelet: probe failed'],
    ['run 3f2b8c1e-9d4a-4b6e-8f00-123456789abc failed', 'run <uuid> failed'],
    [
      "Error: Cannot find module '/home/runner/work/mem/mem/packages/core/dist/index.js'",
      "Error: Cannot find module '<path>/index.js'",
    ],
    [
      'src/index.ts(12,5): error TS2322: Type string is not assignable to type number.',
      '<path>/index.ts(<n>,<n>): error TS2322: Type string is not assignable to type number.',
    ],
    [
      'at Object.<anonymous> (/tmp/build-8f3a/app.js:41:13)',
      'at Object.<anonymous> (<path>/app.js:<n>)',
    ],
    ['fatal: bad object 9fceb02d0ae598e95dc970b74767f19372d61af8', 'fatal: bad object <sha>'],
    ['commit a1b2c3d broke the build', 'commit <sha> broke the build'],
    ['pod web-7f9c8d-x2b4 OOMKilled, exit code 137', 'pod web-<id>-<id> OOMKilled, exit code 137'],
    ['worker-12 lost lease on job #48213', 'worker-<id> lost lease on job #<n>'],
    ['connect ECONNREFUSED 127.0.0.1:5432', 'connect ECONNREFUSED <ip>'],
    [
      '413 Request Entity Too Large from https://api.example.com/v1/items/123?x=1',
      '413 Request Entity Too Large from https://api.example.com/<path>',
    ],
    ['segfault at 0x7ffd5e8b in libc', 'segfault at <addr> in libc'],
    ['C:\\Users\\ci\\work\\app\\main.go:88 panic: nil map', '<path>/main.go:<n> panic: nil map'],
    ['  spaced    out\ttext  ', 'spaced out text'],
  ])('%s', (raw, expected) => {
    expect(normalizeSignature(raw)).toBe(expected);
  });

  it('maps two occurrences of one failure to one signature', () => {
    const a = normalizeSignature(
      '2026-08-19T09:12:33Z worker-3 /srv/a/b/job.py:120 TimeoutError after 30s (run 0b5f7d1a-0000-4000-8000-000000000001)',
    );
    const b = normalizeSignature(
      '2026-09-01T23:01:02Z worker-17 /home/x/job.py:121 TimeoutError after 45s (run 77aa7d1a-0000-4000-8000-0000000000ff)',
    );
    expect(a).toBe(b);
  });

  it('keeps what tells failures apart: codes, statuses, exit codes', () => {
    expect(normalizeSignature('error TS2322')).not.toBe(normalizeSignature('error TS2345'));
    expect(normalizeSignature('HTTP 413')).not.toBe(normalizeSignature('HTTP 502'));
    expect(normalizeSignature('exit code 137')).not.toBe(normalizeSignature('exit code 1'));
  });

  it('is a pure total function: idempotent and never throws', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'binary', maxLength: 200 }), (line) => {
        const once = normalizeSignature(line);
        expect(normalizeSignature(once)).toBe(once);
      }),
      { numRuns: 500 },
    );
  });
});

describe('toolOf', () => {
  it.each([
    ['npm ERR! ERESOLVE unable to resolve dependency tree', 'npm'],
    ['$ kubectl get pods --all', 'kubectl'],
    ['kubectl: error: unknown flag: --all', 'kubectl'],
    ['bash: helm: command not found', 'helm'],
    ['src/a.ts(<n>,<n>): error TS2322: Type', 'tsc'],
    ['error[E0308]: mismatched types', 'rustc'],
    ['Error from server (NotFound): pods "x" not found', 'kubectl'],
    ['fatal: bad object <sha>', 'unknown'],
    ['git: fatal: not a git repository', 'git'],
    ['something went wrong', 'unknown'],
  ])('%s → %s', (line, tool) => {
    expect(toolOf(line)).toBe(tool);
  });
});

describe('lineSignatures', () => {
  it('yields one signature per distinct normalised line, keyed by its sha256', () => {
    const sigs = lineSignatures(
      'npm ERR! ERESOLVE unable to resolve dependency tree\n\n  worker-1 timed out after 3s\nworker-2 timed out after 9s\n--\n'.split(
        '\n',
      ),
    );
    expect(sigs.map((s) => s.signature)).toEqual([
      'npm ERR! ERESOLVE unable to resolve dependency tree',
      'worker-<id> timed out after <dur>',
    ]);
    expect(sigs[0]).toEqual({
      sigSha: sha256Hex('npm ERR! ERESOLVE unable to resolve dependency tree'),
      signature: 'npm ERR! ERESOLVE unable to resolve dependency tree',
      tool: 'npm',
      raw: 'npm ERR! ERESOLVE unable to resolve dependency tree',
    });
    expect(sigs[1]!.raw).toBe('worker-1 timed out after 3s');
  });

  it('skips lines that identify nothing', () => {
    expect(lineSignatures('---\n12:00:01\n/tmp/x/y\n  \nok'.split('\n'))).toEqual([]);
  });
});
