import { describe, expect, it } from 'vitest';
import { parseGateAnswer } from '../protocol.js';
import { synthesisController } from './controller.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const question =
  'What is the current state of this project, and what should someone know before working on it?';

async function step(lines: string[], memory = '', budget = 200) {
  const records = lines.map((text) => ({ role: 'memory', text }));
  const reply = await synthesisController(words).answer({
    level: 'L2',
    question,
    memory,
    chunk: { text: lines.map((l) => `- ${l}`).join('\n'), records },
    memoryBudget: budget,
  });
  return parseGateAnswer(reply.text);
}

describe('synthesis controller', () => {
  it('reads a batch of lines and folds each that adds knowledge into the memory', async () => {
    const answer = await step([
      '[bugs] The theme loader crashed on an invalid hex colour; fixed by falling back to dark',
      '[decisions] setTheme returns an error the caller displays instead of logging to the console',
    ]);
    expect(answer.update).toBe(true);
    expect(answer.memory.split('\n')).toEqual([
      '- [bugs] The theme loader crashed on an invalid hex colour; fixed by falling back to dark',
      '- [decisions] setTheme returns an error the caller displays instead of logging to the console',
    ]);
    expect(answer.exit).toBe(false);
  });

  it('keeps the gate closed when every line near-duplicates one the memory holds', async () => {
    const memory =
      '- [bugs] Yeah, it does more than just load the theme file: it resolves every variable reference';
    const answer = await step(
      [
        '[decisions] Yeah, it does more than just load the theme file: it resolves every variable…',
        '[open] Yeah, it does more than just load the theme file: it resolves every variable reference and colour',
      ],
      memory,
    );
    expect(answer.update).toBe(false);
    expect(answer.think).toMatch(/already holds/);
  });

  it('adds only the new line of a batch, never a near-duplicate beside it', async () => {
    const memory = '- [bugs] The build fails when node_modules is missing; npm ci fixes it';
    const answer = await step(
      [
        '[tools] The build fails when node_modules is missing; npm ci fixes it again',
        '[decisions] Themes are loaded from JSON files under ~/.pi/themes, never compiled in',
      ],
      memory,
    );
    expect(answer.update).toBe(true);
    expect(answer.memory.split('\n')).toEqual([
      memory,
      '- [decisions] Themes are loaded from JSON files under ~/.pi/themes, never compiled in',
    ]);
  });

  it('lets a full memory never grow into its slack, only trade a weaker line for a stronger one', async () => {
    const memory = [
      '- [bugs] Crash "Invalid hex color" at hexToRgb was fixed by falling back to the dark theme',
      '- [bugs] the build broke once on a missing lockfile and a rerun of npm ci fixed it',
    ].join('\n');
    // 90 % full: room for a two-word line, which is no reason to grow.
    const budget = Math.floor(words.count(memory) / 0.9);
    expect(budget).toBeGreaterThan(words.count(memory) + 2);
    const weak = await step(['[bugs] perhaps flaky'], memory, budget);
    expect(weak.update).toBe(false);
    const stronger = '[decisions] Always run npm run check before a commit';
    const traded = await step([stronger], memory, budget);
    expect(traded.update).toBe(true);
    expect(traded.memory.split('\n')).toEqual([memory.split('\n')[0], `- ${stronger}`]);
  });

  it('keeps a full memory when no new line outweighs its weakest', async () => {
    const memory = [
      '- [bugs] Crash "Invalid hex color" at hexToRgb was fixed by falling back to the dark theme',
      '- [bugs] The root cause of the startup error was a missing variable reference; fixed in theme.ts',
    ].join('\n');
    // The memory fits with one word to spare; the new line does not, and is weaker than both:
    // a third bug, and a guess.
    const answer = await step(
      ['[bugs] the crash might be caused by a stale cache'],
      memory,
      words.count(memory) + 1,
    );
    expect(answer.update).toBe(false);
    expect(answer.think).toMatch(/budget/);
  });

  it("trades a full memory's last incident for the first line of a kind it lacks", async () => {
    // Three past incidents, each with more cue words than a plain description of the project.
    const memory = [
      '- [bugs] The root cause of the crash was an invalid hex colour; fixed by a fallback',
      '- [bugs] The issue was a stale build; the failing compile was fixed by a clean rebuild',
      '- [bugs] The sync error was caused by a timeout in the retry loop; fixed with a backoff',
    ].join('\n');
    const state =
      '[decisions] Theme System: 44 colour tokens, dark and light themes, custom themes under ~/.pi/themes';
    const answer = await step([state], memory, words.count(memory) + 1);
    expect(answer.update).toBe(true);
    expect(answer.memory.split('\n')).toEqual([...memory.split('\n').slice(0, 2), `- ${state}`]);
  });

  it('drops a held line the synthesis retires and fills the room it leaves', async () => {
    const memory = [
      '- [bugs] Crash "Invalid hex color" at hexToRgb was fixed by falling back to the dark theme',
      '- [bugs] the build broke once on a missing lockfile and a rerun of npm ci fixed it',
    ].join('\n');
    const budget = words.count(memory);
    const records = [
      {
        role: 'retired',
        text: '[bugs] the build broke once on a missing lockfile and a rerun of npm ci fixed it',
      },
      { role: 'memory', text: '[decisions] Always run npm run check before a commit' },
    ];
    const reply = await synthesisController(words).answer({
      level: 'L2',
      question,
      memory,
      chunk: { text: '', records },
      memoryBudget: budget,
    });
    const answer = parseGateAnswer(reply.text);
    expect(answer.update).toBe(true);
    expect(answer.memory.split('\n')).toEqual([
      memory.split('\n')[0],
      '- [decisions] Always run npm run check before a commit',
    ]);
    expect(answer.think).toMatch(/1 line no L1 note holds any more left/);
  });

  it('keeps the gate shut when a retired line is not one the memory holds', async () => {
    const memory =
      '- [bugs] the build broke once on a missing lockfile and a rerun of npm ci fixed it';
    const reply = await synthesisController(words).answer({
      level: 'L2',
      question,
      memory,
      chunk: { text: '', records: [{ role: 'retired', text: '[bugs] some other line' }] },
      memoryBudget: 200,
    });
    expect(parseGateAnswer(reply.text).update).toBe(false);
  });
});
