import { describe, expect, it } from 'vitest';
import { foldMemory } from './fold.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};
const held = {
  text: "`cd web && npm run check` failed with \"src/session.ts(1330,42): error TS2339: Property 'loadModel' does not exist on type 'SessionManager'.\"; fixed: edited web/src/session.ts",
  score: 1.1,
};
const fold = (text: string) =>
  foldMemory([held], [{ text, score: 1.1 }], 1000, words).map((item) => item.text);

describe('error → fix lines of one bug fold into one', () => {
  it('folds a failure of the same command mended in the same file', () => {
    expect(
      fold(
        '`cd web && npm run check` failed with "src/session.ts(88,3): error TS2554: Expected 2 arguments, but got 1 in restoreThinkingLevel."; fixed: edited web/src/session.ts',
      ),
    ).toEqual([held.text]);
  });

  it('folds the same symptom at another line, whatever command showed it', () => {
    expect(
      fold(
        "`npx tsc --noEmit -p web` failed with \"src/session.ts(1402,7): error TS2339: Property 'loadModel' does not exist on type 'SessionManager'.\"; fixed: restored the method",
      ),
    ).toEqual([held.text]);
  });

  it('keeps a failure of the same command mended in another file', () => {
    const other =
      '`cd web && npm run check` failed with "examples/compaction.ts(25,16): error TS2345: Argument of type Message is not assignable."; fixed: edited web/examples/compaction.ts';
    expect(fold(other)).toEqual([held.text, other]);
  });
});
