import { describe, expect, it } from 'vitest';
import { hasErrorCode, isMemError } from '../errors.js';
import { contentSha256 } from '../identity.js';
import { parseEvent, parsePayload } from './parse.js';

const GHP = 'ghp_1234567890abcdefghijklmnopqrstuvwxyzAB';
const HF = 'hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567';
const SHA = 'a'.repeat(64);

describe('parsePayload scrubs every string a writer hands to the log', () => {
  it('source, ingest_id, cwd, entry, record text and the caller label of an ingest_accepted', () => {
    const payload = parsePayload({
      type: 'ingest_accepted',
      job_id: 'ingest-00000000-0000-4000-8000-000000000000',
      ingest_id: `retry-${GHP}`,
      source: `agent:${GHP}`,
      format: 'records',
      records: [
        {
          role: 'tool_call',
          text: 'mysql -u root -phunter22x shop',
          timestamp: null,
          source: `agent:${HF}`,
          cwd: `/home/me/${GHP}`,
          entry: `e-${HF}`,
        },
      ],
    });
    expect(JSON.stringify(payload)).not.toMatch(/ghp_1234|hf_AbCd|hunter22x/);
    expect(payload).toMatchObject({
      ingest_id: 'retry-[REDACTED:github_token]',
      source: 'agent:[REDACTED:github_token]',
      records: [
        {
          text: 'mysql -u root -p[REDACTED:password] shop',
          source: 'agent:[REDACTED:huggingface_token]',
          cwd: '/home/me/[REDACTED:github_token]',
          entry: 'e-[REDACTED:huggingface_token]',
        },
      ],
    });
  });

  it('a chunk source and a gate think, deterministically (the same identity in, the same identity out)', () => {
    const chunk = {
      type: 'chunk',
      run_id: 'r1',
      level: 'L0',
      t: 1,
      source: `claude:${GHP}`,
      span: [0, 1],
      sha256: SHA,
    };
    expect(parsePayload(chunk)).toMatchObject({ source: 'claude:[REDACTED:github_token]' });
    expect(parsePayload(chunk)).toEqual(parsePayload(parsePayload(chunk)));
    const gate = {
      type: 'gate',
      run_id: 'r1',
      level: 'L1',
      t: 1,
      update: false,
      exit: false,
      think: `saw curl -u ops:hunter22x`,
      latency_ms: 1,
    };
    expect(parsePayload(gate)).toMatchObject({ think: 'saw curl -u ops:[REDACTED:password]' });
  });

  it('checks content identity against the scrubbed text', () => {
    const text = `the key was ${HF}`;
    const scrubbed = 'the key was [REDACTED:huggingface_token]';
    const evidence = {
      type: 'evidence',
      run_id: 'r1',
      level: 'L0',
      t: 1,
      source: 'claude:s',
      text,
      sha256: contentSha256(scrubbed),
    };
    expect(parsePayload(evidence)).toMatchObject({
      text: scrubbed,
      sha256: contentSha256(scrubbed),
    });
  });

  it('refuses a sha256 of the unscrubbed text with SHA_MISMATCH naming the scrubbed identity', () => {
    const text = `the key was ${HF}`;
    const evidence = {
      type: 'evidence',
      run_id: 'r1',
      level: 'L0',
      t: 1,
      source: 'claude:s',
      text,
      sha256: contentSha256(text),
    };
    let error: unknown;
    try {
      parsePayload(evidence, { line: 3 });
    } catch (e) {
      error = e;
    }
    expect(hasErrorCode(error, 'SHA_MISMATCH')).toBe(true);
    expect(isMemError(error) && error.details).toMatchObject({
      line: 3,
      field: 'sha256',
      scrubbed: true,
      expected: contentSha256('the key was [REDACTED:huggingface_token]'),
    });
    expect(String((error as Error).message)).not.toContain(HF);
  });

  it('never echoes a secret in a validation error', () => {
    let error: unknown;
    try {
      parsePayload({
        type: 'chunk',
        run_id: 'r1',
        level: 'L0',
        t: `t ${GHP}`,
        source: 's',
        span: [0, 1],
        sha256: SHA,
      });
    } catch (e) {
      error = e;
    }
    expect(hasErrorCode(error, 'INVALID_EVENT')).toBe(true);
    expect(
      JSON.stringify({
        message: (error as Error).message,
        details: isMemError(error) ? error.details : null,
      }),
    ).not.toContain(GHP);
  });

  it('reads logged events as they are: the log is never rewritten on the way back', () => {
    const line = {
      seq: 1,
      ts: '2025-01-01T00:00:00.000Z',
      project: 'demo',
      type: 'chunk',
      writer: { kind: 'cli' },
      run_id: 'r1',
      level: 'L0',
      t: 1,
      source: `claude:${GHP}`,
      span: [0, 1],
      sha256: SHA,
      prev: SHA,
    };
    expect(parseEvent(line)).toMatchObject({ source: `claude:${GHP}` });
  });
});
