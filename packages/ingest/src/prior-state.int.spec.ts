import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { contentSha256 } from '@mem/core';
import { Engine } from '@mem/engine';
import { projectorSqlite } from '@mem/projector-sqlite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priorState, withItemStore } from './prior-state.js';

const E_CRASH = 'Invalid hex color at hexToRgb; fell back to the dark theme.';
const E_TOML = 'Settings stay in TOML because comments survive.';
const CRASH = 'The theme loader crashed on an invalid hex colour; it falls back to the dark theme.';
const TOML = 'Settings stay in TOML, not YAML.';
const TEXT = `- ${CRASH}\n- ${TOML}`;

let root: string;

beforeAll(async () => {
  root = mkdtempSync(join(tmpdir(), 'mem-prior-'));
  const engine = new Engine({ root, projectors: [projectorSqlite] });
  const sha = contentSha256;
  await engine.append(
    'demo',
    [
      {
        type: 'run',
        run_id: 'r-1',
        level: 'L1',
        query_id: 'q',
        input_level: 'chunk',
        model: 'heuristic',
        chunk_tokens: 5000,
        memory_budget: 1024,
        exit_gate: false,
      },
      {
        type: 'evidence',
        run_id: 'r-1',
        level: 'L0',
        t: 1,
        source: 'claude:s',
        text: E_CRASH,
        sha256: sha(E_CRASH),
      },
      {
        type: 'evidence',
        run_id: 'r-1',
        level: 'L0',
        t: 2,
        source: 'claude:s',
        text: E_TOML,
        sha256: sha(E_TOML),
      },
      {
        type: 'memory',
        run_id: 'r-1',
        level: 'L1',
        t: 2,
        text: TEXT,
        tokens: 20,
        parents: [sha(E_CRASH), sha(E_TOML)],
        sha256: sha(TEXT),
        lines: [
          { sha256: sha(CRASH), parents: [sha(E_CRASH)] },
          { sha256: sha(TOML), parents: [sha(E_TOML)] },
        ],
      },
    ],
    { kind: 'test' },
  );
});
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('priorState', () => {
  it("hands a continued run each line's own parents, as the memory event logged them", () => {
    const prior = withItemStore(join(root, '.mem'), (store) => priorState(store, 'demo', 'q'));
    expect(prior.previous).toEqual({
      text: TEXT,
      parents: [contentSha256(E_CRASH), contentSha256(E_TOML)].sort(),
      lines: [
        { text: CRASH, parents: [contentSha256(E_CRASH)] },
        { text: TOML, parents: [contentSha256(E_TOML)] },
      ],
    });
  });
});
