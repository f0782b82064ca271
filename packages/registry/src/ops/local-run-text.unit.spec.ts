import { describe, expect, it } from 'vitest';
import { dryRunText } from './local-run-text.js';
import type { DryRunOutput } from './local-run-output.js';

const stats = {
  bytes: 2048,
  duplicateUuids: 0,
  files: 2,
  filesSkipped: { 'other-cwd': 3 },
  glued: { lines: 0, objects: 0 },
  invalidJson: { count: 1, samples: [{ file: 'a.jsonl', line: 7 }] },
  lines: 40,
  media: { images: 0, documents: 0, bytes: 0 },
  pasted: {},
  records: { user: 5, assistant: 6 },
  retyped: {},
  secrets: { 'aws-key': 1 },
  skipped: {},
  toolTextCut: { count: 0, chars: 0 },
  truncatedTails: { count: 0, samples: [] },
  unknown: { count: 0, top: [] },
};

const report = {
  project: 'demo',
  file: 'queries/demo.yaml',
  queries: ['q1'],
  sources: [{ entry: 'sessions', kind: 'claude-code', path: ['/x'], stats }],
  records: { total: 11, byRole: { user: 5, assistant: 6 } },
  chunks: 3,
  tokens: {
    total: 900,
    max: 400,
    histogram: {
      buckets: [{ from: 0, to: 512, count: 3 }],
      over: 0,
      count: 3,
      totalTokens: 900,
      min: 100,
      max: 400,
      mean: 300,
    },
  },
  bytes: 2048,
} as DryRunOutput;

describe('ingest --dry-run text (stop-32 walk: it printed raw JSON)', () => {
  it('prints each source in words, what happened on lines of their own, and no JSON', () => {
    const text = dryRunText(report);
    expect(text).not.toMatch(/[{}"]/);
    expect(text).toContain(
      '  source sessions: 2 files, 40 lines, 2048 bytes; records: assistant 6, user 5',
    );
    expect(text).toContain('    files skipped: other-cwd 3');
    expect(text).toContain('    invalid JSON lines: 1 (first: a.jsonl:7)');
    expect(text).toContain('    secrets scrubbed: aws-key 1');
    expect(text).not.toContain('duplicate uuids');
  });
});
