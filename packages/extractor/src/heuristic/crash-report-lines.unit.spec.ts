import { describe, expect, it } from 'vitest';
import type { ChunkRecord } from '../controller.js';
import { concessionSignals } from './concession-signals.js';
import { reportedCrashSignals } from './report-signals.js';

// The shape of a user pasting a crash (an `Error:` line and its stack) and the agent changing
// code for it: pi-mono-large-session's theme selector crash, names changed.
const paste: ChunkRecord = {
  role: 'user',
  text: [
    'picked a layout while you were working and it blew up',
    'Error: Slot reference not found: sidebarWidth',
    '    at resolveSlots (/home/me/app/src/layout/layout.ts:88:11)',
    '    at loadLayout (/home/me/app/src/layout/layout.ts:140:3)',
  ].join('\n'),
};
const edit = (comment: string): ChunkRecord => ({
  role: 'tool_call',
  text: `edit ${JSON.stringify({
    path: 'src/ui/picker.ts',
    oldText: 'applyLayout(name);',
    newText: `// Preview the layout on selection change\ntry {\n\tapplyLayout(name);\n} catch (error) {\n\t// ${comment}\n}`,
  })}`,
});
const result: ChunkRecord = {
  role: 'tool_result',
  text: 'edit result: Successfully replaced text in src/ui/picker.ts.',
};

describe('the fix of a pasted crash', () => {
  it('is not a sentence saying what the code should do; the catch block says what it now does', () => {
    const records: ChunkRecord[] = [
      paste,
      {
        role: 'assistant',
        text: 'The layout was half-written when you picked it. The loader should catch this error instead of crashing. Let me fix this:',
      },
      edit('Ignore errors during preview (the layout may be mid-edit)'),
      result,
    ];
    expect(reportedCrashSignals(records).map((s) => s.text)).toEqual([
      'Crash "Slot reference not found: sidebarWidth" at resolveSlots (layout/layout.ts); fixed in src/ui/picker.ts: Ignore errors during preview (the layout may be mid-edit)',
    ]);
  });

  it('is the sentence that reports the change when there is one', () => {
    const records: ChunkRecord[] = [
      paste,
      { role: 'assistant', text: 'Wrapped the preview in a try/catch so a bad layout is skipped.' },
      edit('Ignore errors during preview (the layout may be mid-edit)'),
      result,
    ];
    expect(reportedCrashSignals(records).map((s) => s.text)).toEqual([
      'Crash "Slot reference not found: sidebarWidth" at resolveSlots (layout/layout.ts); fixed in src/ui/picker.ts: Wrapped the preview in a try/catch so a bad layout is skipped.',
    ]);
  });
});

describe('the agent conceding a pasted crash', () => {
  it('is no corrected design: the crash is a bug line, not a decision', () => {
    const records: ChunkRecord[] = [
      { ...paste, text: `layouts must NEVER explode\n${paste.text}` },
      {
        role: 'assistant',
        text: "You're absolutely right - broken layouts should never crash the app. Let me wrap it:",
      },
      edit('Fall back to the default layout'),
      result,
      { role: 'user', text: 'no, the sidebar is drawn before the editor, not after' },
      { role: 'assistant', text: "You're right. The sidebar is drawn first. Let me fix the doc:" },
    ];
    expect(concessionSignals(records).map((s) => s.text)).toEqual([
      'Corrected: The sidebar is drawn first.',
    ]);
  });

  it('is no corrected design when the reader marked the crash a paste (most of its lines are a stack)', () => {
    const frames = Array.from(
      { length: 8 },
      (_, i) => `    at frame${i} (/home/me/app/src/layout/layout.ts:${10 + i}:3)`,
    );
    const records: ChunkRecord[] = [
      {
        role: 'user',
        pasted: 'tool-output',
        text: [
          'layouts must NEVER explode',
          'Error: Slot reference not found: sidebarWidth',
          ...frames,
        ].join('\n'),
      },
      {
        role: 'assistant',
        text: "You're absolutely right - broken layouts should never crash the app. Let me wrap it:",
      },
    ];
    expect(concessionSignals(records)).toEqual([]);
  });
});
