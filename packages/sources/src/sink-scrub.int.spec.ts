import { describe, expect, it } from 'vitest';
import {
  ALL_PLANTED,
  FIELD_SECRETS,
  PLANTED_SECRETS,
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

  it("a summary section's heading path is kept and scrubbed", async () => {
    const token = PLANTED_SECRETS.find((p) => p.kind === 'github_token')!;
    const summary = `## Decisions for ${token.snippet}\n### Avoiding Global State\n- config over globals`;
    const line = JSON.stringify({ type: 'compaction', id: 'c1', summary });
    const records = [];
    for await (const record of transcriptFromText(`${line}\n`, 'pi')) records.push(record);
    const section = records[0]?.sections?.find((s) => s.heading === 'Avoiding Global State');
    expect(section?.path).toEqual(['Decisions for [REDACTED:github_token]']);
    expect(JSON.stringify(records)).not.toContain(token.secret);
  });
});
