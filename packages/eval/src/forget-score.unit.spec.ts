import { describe, expect, it } from 'vitest';
import { FORGET_OBLIGATIONS, scoreForget, type ForgetObservations } from './forget-score.js';

const SHA = 'a'.repeat(64);

/** What a store that forgets properly lets the attacks observe. */
const durable: ForgetObservations = {
  fact: { sha256: SHA, live_before_forget: true, forgotten: true },
  readds: {
    cli: { code: 'FORGOTTEN', log_grew: false },
    http: { code: 'FORGOTTEN', log_grew: false },
    mcp: { code: 'FORGOTTEN', log_grew: false },
    reword: { code: 'FORGOTTEN', log_grew: false },
  },
  reingest: { ran: true, lines_forgotten: 1, line_returned: false },
  rebuild: { ran: true, live_after: false },
  synthesis: { l2_lines: 3, contains_fact: false },
  leak: { searched_files: ['.mem/items.sqlite', 'vault/demo/a.md'], holding: [] },
  vectors: { searched_files: ['.mem/pg/base/5/16400'], holding: [] },
  purge: { searched_files: ['log/demo/000001.jsonl', '.mem/items.sqlite'], holding: [] },
};

const failing = (obs: ForgetObservations) =>
  scoreForget(obs)
    .obligations.filter((o) => !o.pass)
    .map((o) => o.name);

describe('scoreForget', () => {
  it('passes every obligation when every attack was refused and no copy was found', () => {
    const card = scoreForget(durable);
    expect(card.obligations.map((o) => o.name)).toEqual([...FORGET_OBLIGATIONS]);
    expect(failing(durable)).toEqual([]);
    expect(card.passed).toBe(FORGET_OBLIGATIONS.length);
  });

  it('fails every obligation on an empty store: nothing captured is nothing proven', () => {
    const empty: ForgetObservations = { ...durable, fact: null };
    expect(failing(empty)).toEqual([...FORGET_OBLIGATIONS]);
    const neverLive: ForgetObservations = {
      ...durable,
      fact: { sha256: SHA, live_before_forget: false, forgotten: true },
    };
    expect(failing(neverLive)).toEqual([...FORGET_OBLIGATIONS]);
    expect(scoreForget(empty).obligations[1]!.evidence).toContain('no fact');
  });

  it('fails an attack that was not observed, and one whose re-add went through', () => {
    const { http: _http, ...readds } = durable.readds;
    const obs: ForgetObservations = {
      ...durable,
      readds: { ...readds, cli: { code: null, log_grew: true } },
    };
    expect(failing(obs)).toEqual(['exact_readd_cli', 'exact_readd_http']);
    const refusedButWritten = { ...durable.readds, mcp: { code: 'FORGOTTEN', log_grew: true } };
    expect(failing({ ...durable, readds: refusedButWritten })).toEqual(['exact_readd_mcp']);
  });

  it('fails re-ingest without a counted drop, a rebuild that brings it back, and a synthesis that wrote nothing', () => {
    expect(
      failing({ ...durable, reingest: { ran: true, lines_forgotten: 0, line_returned: false } }),
    ).toEqual(['reingest']);
    expect(failing({ ...durable, rebuild: { ran: true, live_after: true } })).toEqual(['rebuild']);
    expect(failing({ ...durable, synthesis: { l2_lines: 0, contains_fact: false } })).toEqual([
      'synthesis',
    ]);
    expect(failing({ ...durable, synthesis: { l2_lines: 4, contains_fact: true } })).toEqual([
      'synthesis',
    ]);
  });

  it('fails a vector search that found a vector of the line or searched no store, naming the files', () => {
    const kept = {
      ...durable,
      vectors: { searched_files: ['x'], holding: ['.mem/pg/base/5/16400'] },
    };
    expect(failing(kept)).toEqual(['vector_search']);
    expect(
      scoreForget(kept).obligations.find((o) => o.name === 'vector_search')!.evidence,
    ).toContain('.mem/pg/base/5/16400');
    expect(failing({ ...durable, vectors: { searched_files: [], holding: [] } })).toEqual([
      'vector_search',
    ]);
  });

  it('fails a leak search that found a copy or searched nothing, naming the files', () => {
    const leaked = { ...durable, leak: { searched_files: ['x'], holding: ['.mem/items.sqlite'] } };
    expect(failing(leaked)).toEqual(['leak_search']);
    expect(
      scoreForget(leaked).obligations.find((o) => o.name === 'leak_search')!.evidence,
    ).toContain('.mem/items.sqlite');
    expect(failing({ ...durable, leak: { searched_files: [], holding: [] } })).toEqual([
      'leak_search',
    ]);
    expect(failing({ ...durable, purge: { searched_files: ['x'], holding: ['log/a'] } })).toEqual([
      'purge',
    ]);
  });
});
