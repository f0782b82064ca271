import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';
import { labelledBugs } from './labelled-bug-signals.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';

const report: ChunkRecord = {
  role: 'assistant',
  text: [
    'The fix is complete. Summary:',
    '',
    '**Issue #41**: Uploads over 2 GB were cut short because the size was read into a 32-bit int.',
    '',
    '**Root cause**: `readSize` parsed the header with `parseInt32`.',
    '',
    '**Fix**: Modified `src/upload/size.ts` to:',
    '1. Read the header as a 64-bit value',
    '2. Reject sizes above the configured limit',
    '',
    'The existing retry logic already covers partial uploads.',
  ].join('\n'),
};

describe("an agent's labelled bug report", () => {
  it('pairs its Issue, Root cause and Fix lines into one bug line, the rest stays prose', () => {
    const { signals, rest } = labelledBugs(report);
    expect(signals).toEqual([
      {
        family: 'cause',
        text: 'Issue #41: Uploads over 2 GB were cut short because the size was read into a 32-bit int. Root cause: `readSize` parsed the header with `parseInt32`. Fix: Modified `src/upload/size.ts` to: Read the header as a 64-bit value; Reject sizes above the configured limit',
      },
    ]);
    expect(rest).not.toContain('**Fix**');
    expect(rest).toContain('existing retry logic');
  });

  it('is one line of the bugs note, not its labelled fragments', async () => {
    const reply = await heuristicController(words).answer({
      level: 'L1',
      question: BUGS,
      memory: '',
      chunk: { text: report.text, records: [report] },
      memoryBudget: 400,
    });
    const lines = parseGateAnswer(reply.text).memory.split('\n');
    const bug = lines.filter((l) => l.includes('Issue #41'));
    expect(bug).toHaveLength(1);
    expect(bug[0]).toContain('Fix: Modified `src/upload/size.ts`');
    expect(lines.some((l) => /^- (?:\*\*)?Fix\b/.test(l))).toBe(false);
  });

  it('leaves a lone label as prose', () => {
    const lone: ChunkRecord = { role: 'assistant', text: '**Fix**: bumped the timeout.' };
    expect(labelledBugs(lone)).toEqual({ signals: [], rest: lone.text });
  });
});
