import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';

const stated =
  'The upload route returned 413 because the ingress buffered request bodies; setting proxy-body-size to 0 stopped it.';
const summary: ChunkRecord = {
  role: 'summary',
  text: `Errors and fixes:\n- ${stated}`,
  sections: [{ heading: 'Errors and fixes', text: `- ${stated}` }],
};

/** Distinct failures, each a different command on a different file, so no two lines fold. */
const FAILURES: readonly [string, string, string][] = [
  [
    'npx tsc --noEmit',
    'cart.ts',
    "error TS2322: Type 'string' is not assignable to type 'number'.",
  ],
  [
    'npx vitest run auth',
    'session.ts',
    'TypeError: Cannot read properties of undefined (reading token)',
  ],
  ['cargo build', 'parser.rs', 'error[E0308]: mismatched types expected u32 found i64'],
  ['go test ./store', 'ledger.go', 'panic: runtime error: index out of range [3] with length 3'],
  ['pytest tests/api', 'views.py', 'AssertionError: assert 404 == 200 for GET /orders'],
  ['npm run lint', 'theme.tsx', 'React Hook useEffect has a missing dependency: palette'],
  ['mix test', 'channel.ex', 'FunctionClauseError no function clause matching in join/3'],
  ['gradle check', 'Invoice.kt', 'Unresolved reference: currencyFormatter in billing module'],
  ['dotnet build', 'Report.cs', "CS0246: The type or namespace name 'Chart' could not be found"],
  ['make firmware', 'uart.c', 'undefined reference to dma_enable in linker stage'],
  ['bundle exec rspec', 'coupon.rb', 'NoMethodError: undefined method expires_at for nil'],
  ['swift build', 'Camera.swift', "value of type 'AVCapture' has no member 'zoomFactor'"],
  ['deno check', 'router.ts', 'Module not found: https://deno.land/std/http/mod.ts'],
  ['php artisan test', 'Payment.php', 'SQLSTATE[42S02] Base table payments_archive not found'],
];

/** A run that fails on one file, the edit of that file, and the rerun that passes. */
function failThenPass([command, file, error]: readonly [string, string, string]): ChunkRecord[] {
  const call = `Bash {"command":"cd app && ${command}"}`;
  return [
    { role: 'tool_call', text: call },
    { role: 'tool_result', text: `Bash error:\nsrc/${file}(14,7): ${error}` },
    {
      role: 'tool_call',
      text: `Edit {"file_path":"app/src/${file}","old_string":"a","new_string":"b"}`,
    },
    { role: 'tool_result', text: `Edit result:\nThe file app/src/${file} has been updated.` },
    { role: 'tool_call', text: call },
    { role: 'tool_result', text: 'Bash result:\nok' },
  ];
}

describe('evidence strength when the memory is full', () => {
  it('keeps a bug a summary states while fourteen bugs paired from tool runs come after it', async () => {
    const controller = heuristicController(words);
    let memory = '';
    const chunks = [[summary], ...FAILURES.map(failThenPass)];
    for (const records of chunks) {
      const answer = parseGateAnswer(
        (
          await controller.answer({
            level: 'L1',
            question: BUGS,
            memory,
            chunk: { text: records.map((r) => r.text).join('\n'), records, source: 'claude:s' },
            // Room for about twelve lines: by the last paired bug the stated line is the
            // oldest by far, and age alone must not shed it.
            memoryBudget: 280,
          })
        ).text,
      );
      if (answer.update) memory = answer.memory;
    }
    expect(memory.split('\n')).toContain(`- ${stated}`);
    expect(memory).toContain('payments_archive');
  });
});
