import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { defineOperation } from './operation.js';
import { outputDrift } from './output-drift.js';

/** A deliberately wrong operation: its answer may carry what its output schema does not say. */
function opAnswering(answer: unknown) {
  return defineOperation({
    name: 'wrong',
    summary: 'answers more than it declares',
    input: z.strictObject({}),
    output: z.object({ ok: z.boolean(), items: z.array(z.object({ id: z.string() })) }),
    kind: 'read',
    idempotent: true,
    auth: { access: 'open' },
    http: { method: 'GET', path: '/wrong' },
    mcp: { tool: 'wrong' },
    run: async () => answer as { ok: boolean; items: { id: string }[] },
  });
}

describe('outputDrift', () => {
  it('is null for an answer its schema describes exactly', () => {
    expect(
      outputDrift(opAnswering({ ok: true, items: [{ id: 'a' }] }), {
        ok: true,
        items: [{ id: 'a' }],
      }),
    ).toBeNull();
  });

  it('names a field the schema lacks, however deep', () => {
    const answer = { ok: true, secret: 'x', items: [{ id: 'a' }, { id: 'b', extra: 1 }] };
    expect(outputDrift(opAnswering(answer), answer)).toBe(
      'wrong: the answer carries fields its output schema does not declare: secret, items[1].extra',
    );
  });

  it('names a field whose value the schema refuses', () => {
    expect(outputDrift(opAnswering({ ok: 'yes', items: [] }), { ok: 'yes', items: [] })).toMatch(
      /^wrong: ok: /,
    );
  });
});
