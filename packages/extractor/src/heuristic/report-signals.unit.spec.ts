import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import type { ChunkRecord } from '../controller.js';
import { heuristicController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const BUGS = 'What bugs or failures were found, what was the root cause, and how were they fixed?';

async function memoryFor(records: ChunkRecord[], memory = '', question = BUGS): Promise<string[]> {
  const reply = await heuristicController(words).answer({
    level: 'L1',
    question,
    memory,
    chunk: { text: records.map((r) => r.text).join('\n'), records },
    memoryBudget: 300,
  });
  const answer = parseGateAnswer(reply.text);
  return answer.update ? answer.memory.split('\n') : [];
}

// The shape of pi-mono-large-session: the user pastes a crash, the agent answers with an edit.
const crash: ChunkRecord = {
  role: 'user',
  pasted: 'tool-output',
  text: [
    'my dude, this exploded when i restarted with -r. invalid themes must NEVER explode',
    '',
    'Error: Invalid hex color: #000cc',
    '    at hexToRgb (/Users/x/pi-mono/packages/coding-agent/src/theme/theme.ts:148:9)',
    '    at bgAnsi (/Users/x/pi-mono/packages/coding-agent/src/theme/theme.ts:191:24)',
    '    at new Theme (/Users/x/pi-mono/packages/coding-agent/src/theme/theme.ts:251:27)',
  ].join('\n'),
};
const sorry: ChunkRecord = {
  role: 'assistant',
  text: "You're absolutely right - invalid themes should never crash the app! Let me wrap the theme initialization:",
};
const edit: ChunkRecord = {
  role: 'tool_call',
  text: `edit ${JSON.stringify({
    path: 'packages/coding-agent/src/theme/theme.ts',
    oldText: 'theme = loadTheme(name);',
    newText:
      'try {\n\ttheme = loadTheme(name);\n} catch (error) {\n\t// Theme is invalid - fall back to dark theme\n\ttheme = loadTheme("dark");\n}',
  })}`,
};
const edited: ChunkRecord = {
  role: 'tool_result',
  text: 'edit result:\nSuccessfully replaced text.',
};

describe('a crash the user reports, with the fix the agent makes', () => {
  it('is one bug line: the error, where it was thrown, and the fix the edit states', async () => {
    const memory = await memoryFor([crash, sorry, edit, edited]);
    const line = memory.find((l) => l.includes('Invalid hex color'));
    expect(line).toBeDefined();
    expect(line).toContain('hexToRgb');
    expect(line).toContain('fall back to dark theme');
    expect(line).toContain('packages/coding-agent/src/theme/theme.ts');
  });

  it('states the fix the agent said in prose when it said one', async () => {
    const said: ChunkRecord = {
      role: 'assistant',
      text: 'The theme file had a five-digit colour. I added a fallback to the dark theme when a theme fails to load.',
    };
    const memory = await memoryFor([crash, said, edit, edited]);
    const line = memory.find((l) => l.includes('Invalid hex color'));
    expect(line).toContain('I added a fallback to the dark theme');
  });

  it('is no line when nothing after the report changes anything', async () => {
    const memory = await memoryFor([crash, sorry]);
    expect(memory.some((l) => l.includes('Invalid hex color') && l.includes('fix'))).toBe(false);
  });

  it('reads an edit whose arguments the source capped mid-JSON', async () => {
    const capped: ChunkRecord = { role: 'tool_call', text: edit.text.slice(0, -30) };
    const memory = await memoryFor([crash, sorry, capped]);
    const line = memory.find((l) => l.includes('Invalid hex color'));
    expect(line).toContain('fall back to dark theme');
  });

  it('takes the edit to a file of the stack over an earlier edit elsewhere', async () => {
    const elsewhere: ChunkRecord = {
      role: 'tool_call',
      text: `edit ${JSON.stringify({
        path: 'packages/coding-agent/src/tui/tui-renderer.ts',
        oldText: 'a',
        newText: '// Preview theme on selection change\npreview(theme);',
      })}`,
    };
    const memory = await memoryFor([crash, sorry, elsewhere, edited, edit, edited]);
    const line = memory.find((l) => l.includes('Invalid hex color'));
    expect(line).toContain('fixed in packages/coding-agent/src/theme/theme.ts');
    expect(line).not.toContain('Preview theme');
  });
});
