import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';
import { sectionSignals } from './summary-signals.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const OPEN = 'What questions were raised and left unresolved?';

/** One controller over a transcript's chunks, as the loop drives it: memory in, memory out. */
function run() {
  const controller = heuristicController(words);
  let memory = '';
  return async (records: ChunkRecord[]) => {
    const answer = parseGateAnswer(
      (
        await controller.answer({
          level: 'L1',
          question: OPEN,
          memory,
          chunk: { text: records.map((r) => r.text).join('\n'), records, source: 'pi:s' },
          memoryBudget: 300,
        })
      ).text,
    );
    if (answer.update) memory = answer.memory;
    return memory;
  };
}

// The shape of pi-mono-compact's checkpoint (record 758): a pending step naming the file to
// change, then the session going on and editing that file (record 781).
const TASK =
  'Need to update the documentation in `packages/coding-agent/docs/hooks.md` to document the new `resolveApiKey` field for `before_compact` events.';
const OTHER =
  'Spotter-gqc.7 is still blocked by the `ProjectReviewLive` page and needs hook tokens.';
const checkpoint: ChunkRecord = {
  role: 'summary',
  text: `## Current State\n${TASK}\n\n## Next Steps\n- ${OTHER}`,
  sections: [
    { heading: 'Current State', text: TASK },
    { heading: 'Next Steps', text: `- ${OTHER}` },
  ],
};
const editHooks: ChunkRecord[] = [
  {
    role: 'tool_call',
    text: 'edit {"path":"/Users/me/pi-mono/packages/coding-agent/docs/hooks.md","oldText":"| Field |","newText":"| Field | Description |"}',
  },
  {
    role: 'tool_result',
    text: 'edit result: Successfully replaced text in /Users/me/pi-mono/packages/coding-agent/docs/hooks.md.',
  },
];
const failedEdit: ChunkRecord[] = [
  editHooks[0]!,
  {
    role: 'tool_result',
    text: 'edit error: Could not find the exact text in /Users/me/pi-mono/packages/coding-agent/docs/hooks.md.',
  },
];
const editOther: ChunkRecord[] = [
  {
    role: 'tool_call',
    text: 'edit {"path":"/Users/me/pi-mono/packages/coding-agent/src/core/sdk.ts","oldText":"a","newText":"b"}',
  },
  {
    role: 'tool_result',
    text: 'edit result: Successfully replaced text in /Users/me/pi-mono/packages/coding-agent/src/core/sdk.ts.',
  },
];
/** A later chunk that opens the gate with an open question of its own (so the memory updates). */
const question: ChunkRecord[] = [
  { role: 'user', text: 'does the default compaction take the last summary into account at all?' },
];

describe("a summary's pending task that names a file", () => {
  it('is no open line when the same chunk edits that file after the summary', async () => {
    const memory = await run()([checkpoint, ...editHooks]);
    expect(memory).not.toContain('resolveApiKey');
    expect(memory).toContain('Spotter-gqc.7');
  });

  it('leaves the open note once a later chunk of the session edits that file', async () => {
    const step = run();
    expect(await step([checkpoint])).toContain('resolveApiKey');
    await step(editHooks);
    const after = await step(question);
    expect(after).toContain('default compaction');
    expect(after).not.toContain('resolveApiKey');
    expect(after).toContain('Spotter-gqc.7');
  });

  it('stays open after an edit that failed, or an edit of another file', async () => {
    for (const edits of [failedEdit, editOther]) {
      const step = run();
      await step([checkpoint]);
      await step(edits);
      expect(await step(question)).toContain('resolveApiKey');
    }
  });

  it('stays open when the edit came before the summary', async () => {
    const memory = await run()([...editHooks, checkpoint]);
    expect(memory).toContain('resolveApiKey');
  });
});

describe("a summary's quote of the user in its pending steps", () => {
  // The shape of the spotter compaction's "Optional Next Step" (the prompt asks for verbatim
  // quotes of the latest request): the step, then the quote and its reading.
  const step =
    'Complete gqc.6 by adding LiveView tests for the `close_review_session` event, then commit and push.';
  const quote =
    'The user said: "new beads for the epic were added. tackle them" — meaning implement all remaining gqc tasks.';

  it('is no line beside the step it backs', () => {
    const { signals } = sectionSignals([
      { heading: 'Optional Next Step', text: `${step}\n\n${quote}` },
    ]);
    expect(signals.map((s) => s.text)).toEqual([step]);
  });

  it('is the line when it is the only item that states the pending work', () => {
    const { signals } = sectionSignals([{ heading: 'Optional Next Step', text: quote }]);
    expect(signals.map((s) => [s.family, s.text])).toEqual([['open', quote]]);
  });

  it('is the line when it quotes a request no other item states', () => {
    const separate =
      'The user\'s latest request was: "also make the upload command exit non-zero when any file fails"';
    const { signals } = sectionSignals([
      {
        heading: 'Pending Tasks',
        text: `- Finish the intro section of docs/hooks.md\n- ${separate}`,
      },
    ]);
    expect(signals.map((s) => s.text)).toEqual([
      'Finish the intro section of docs/hooks.md',
      separate,
    ]);
  });

  it('is kept in a decisions section, where the quote may be the choice itself', () => {
    const said =
      'The user said: "use rgb values in the themes, no rgb indices" for every theme file.';
    const { signals } = sectionSignals([
      { heading: 'Key Decisions', text: `- Themes use hex colours\n- ${said}` },
    ]);
    expect(signals.map((s) => s.text)).toContain(said);
  });
});

describe('a pending item whose file a later section of the same summary reports done', () => {
  // The shape of pi-mono-session's last checkpoint: the history summary's "Remaining Work",
  // then the split turn's own summary, which did the first item.
  const remaining = [
    '1. **custom-tools.md** (`/Users/me/pi-mono/packages/coding-agent/docs/custom-tools.md`)',
    '   - Verify against source: `/Users/me/pi-mono/packages/coding-agent/src/core/custom-tools/`',
    '2. **rpc.md** (`/Users/me/pi-mono/packages/coding-agent/docs/rpc.md`)',
    '   - Verify against source: `/Users/me/pi-mono/packages/coding-agent/src/modes/rpc/`',
  ].join('\n');
  const turn = [
    '1. **Added intro section to custom-tools.md** explaining what custom tools are for',
    '2. **Verified accuracy**: checked that the docs match `types.ts`',
  ].join('\n');

  it('is no open line; the item whose file nothing reports done stays', () => {
    const { signals } = sectionSignals([
      { heading: 'Remaining Work', text: remaining },
      { heading: 'Work Completed', text: turn },
    ]);
    const open = signals.filter((s) => s.family === 'open').map((s) => s.text);
    expect(open.some((text) => text.includes('rpc.md'))).toBe(true);
    expect(open.some((text) => text.includes('custom-tools.md'))).toBe(false);
  });

  it('stays open when the report comes before it (the pending item is the later word)', () => {
    const { signals } = sectionSignals([
      { heading: 'Work Completed', text: turn },
      { heading: 'Remaining Work', text: remaining },
    ]);
    const open = signals.filter((s) => s.family === 'open').map((s) => s.text);
    expect(open.some((text) => text.includes('custom-tools.md'))).toBe(true);
  });

  it('stays open when the later section only mentions its file: a bug, or a state not a done one', () => {
    const pending = {
      heading: 'Pending Tasks',
      text: '- Update README.md with the new --dry-run flag',
    };
    for (const later of [
      { heading: 'Errors and fixes', text: '- README.md has been failing the markdown link check' },
      { heading: 'Notes', text: '- README.md has been the entry point for new users' },
      { heading: 'Next Steps', text: '- Updated README.md badges are still to review' },
    ]) {
      const open = sectionSignals([pending, later])
        .signals.filter((s) => s.family === 'open')
        .map((s) => s.text);
      expect(open).toContain('Update README.md with the new --dry-run flag');
    }
  });
});
