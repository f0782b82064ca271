import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evidence,
  fillerNotes,
  linedMemory,
  run,
  sha,
  type TestStore,
  testStore,
} from '../test/store.js';
import { CRASH, DECISION, E_CRASH, E_DECISION, themeCrashNote } from '../test/theme-crash.js';
import { queryMemory } from './query-memory.js';

/*
 * Issue 11 §3: an L2 line cites through the L1 line it copies, down to that line's own chunk.
 * The L2 synthesis copies two lines of one L1 memory as `[query-id] <line>`; the L1 memory rests
 * on both chunks, each line on one. Citing the L1 memory as a whole would hand the crash line
 * the TOML chunk too (on the demo: a sandbox bug cited to unrelated pi-mono tool calls).
 */

const L1_TEXT = `- ${CRASH}\n- ${DECISION}`;
const COPY_CRASH = `[bugs-and-decisions] ${CRASH}`;
const COPY_DECISION = `[bugs-and-decisions] ${DECISION}`;
/*
 * A second note said the crash again, in nearly the same words: the synthesis folded the two
 * into one L2 line resting on both memories, so it cites both L1 lines, each with its own chunk.
 */
const E_TOOL = 'pi exited 1: Invalid hex color "#ggg" at hexToRgb (theme/load.ts:41)';
const TOOL_CRASH =
  'The theme loader crashed on Invalid hex color at hexToRgb; fixed with a fallback to the dark theme on startup.';
const TOOL_TEXT = `- ${TOOL_CRASH}`;

let store: TestStore;

beforeAll(async () => {
  store = await testStore({
    demo: [
      ...themeCrashNote(),
      run('r-3', 'L1', 'tool-failures'),
      evidence('r-3', 1, E_TOOL),
      linedMemory('r-3', 'L1', 1, [[TOOL_CRASH, [E_TOOL]]]),
      run('r-2', 'L2', null),
      linedMemory('r-2', 'L2', 1, [
        [COPY_CRASH, [L1_TEXT, TOOL_TEXT]],
        [COPY_DECISION, [L1_TEXT]],
      ]),
      ...fillerNotes(6),
    ],
  });
});
afterAll(() => store.cleanup());

const l2Line = async (text: string, sha256: string) => {
  const answer = await queryMemory(
    { text, projects: ['demo'], levels: ['L2'] },
    { items: store.items },
  );
  const hit = answer.results.find((r) => r.sha256 === sha256);
  expect(hit).toBeDefined();
  return hit!;
};

describe('queryMemory: an L2 line cites its own L1 line', () => {
  it('cites each copied line and only that line’s chunk, never the L1 memory’s other chunks', async () => {
    const toml = await l2Line('settings TOML YAML', sha(COPY_DECISION));
    expect(toml.parents.map((p) => [p.level, p.sha256, p.text])).toEqual([
      ['L1', sha(DECISION), DECISION],
      ['L0', sha(E_DECISION), E_DECISION],
    ]);
  });

  it('cites a folded line through the near-duplicate line of each L1 memory it rests on', async () => {
    const crash = await l2Line('why did the theme loader crash?', sha(COPY_CRASH));
    expect(crash.parents.map((p) => [p.level, p.sha256, p.text])).toEqual([
      ['L1', sha(CRASH), CRASH],
      ['L0', sha(E_CRASH), E_CRASH],
      ['L1', sha(TOOL_CRASH), TOOL_CRASH],
      ['L0', sha(E_TOOL), E_TOOL],
    ]);
  });
});
