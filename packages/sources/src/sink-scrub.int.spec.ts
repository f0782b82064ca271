import { describe, expect, it } from 'vitest';
import {
  ALL_PLANTED,
  FIELD_SECRETS,
  claudeTranscriptWithSecrets,
} from '../../../test/support/planted-secrets.js';
import { transcriptFromText } from './memory.js';

describe('RecordSink scrubs every string a record carries', () => {
  it('text of all four paths, and the source, entry and cwd a reader takes from the transcript', async () => {
    const records = [];
    for await (const record of transcriptFromText(claudeTranscriptWithSecrets(), 'claude'))
      records.push(record);
    expect(records.map((r) => r.role).sort()).toEqual([
      'assistant',
      'tool_call',
      'tool_result',
      'user',
    ]);
    const stored = JSON.stringify(records);
    for (const secret of ALL_PLANTED) expect(stored).not.toContain(secret);
    // Deterministic: the same session maps to the same scrubbed identity.
    expect(new Set(records.map((r) => r.provenance.source))).toEqual(
      new Set(['claude:s-[REDACTED:github_token]']),
    );
    expect(records[0]!.cwd).toBe('/home/dev/[REDACTED:huggingface_token]/app');
    expect(stored).not.toContain(FIELD_SECRETS.entry);
  });
});
