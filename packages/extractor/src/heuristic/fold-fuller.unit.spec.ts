import { describe, expect, it } from 'vitest';
import { foldMemory } from './fold.js';
import { listItems } from './text.js';

const words = {
  name: 'words',
  count: (text: string) => (text.trim() === '' ? 0 : text.trim().split(/\s+/).length),
};

const report =
  'User reports: scrolling back in xterm.js still does not work (maybe because outer web catches it)?';
const open =
  'Open: scrolling back in xterm.js still does not work (maybe because outer web catches it)? websearch xterm.js tmux interactions';

describe('two lines of one chunk, one saying all the other says and more', () => {
  it('fold into the fuller line, in the shorter one’s place', () => {
    const folded = foldMemory(
      [{ text: 'spotter-gqc.7 is not started', score: 1 }],
      [
        { text: report, score: 1 },
        { text: 'The build issue might be related to the configuration', score: 1 },
        { text: open, score: 1 },
      ],
      1000,
      words,
    );
    expect(folded.map((item) => item.text)).toEqual([
      'spotter-gqc.7 is not started',
      open,
      'The build issue might be related to the configuration',
    ]);
  });

  it('leave a remembered line alone (replacing it would be an update for nothing new)', () => {
    const folded = foldMemory(
      [{ text: report, score: 1 }],
      [{ text: open, score: 1 }],
      1000,
      words,
    );
    expect(folded.map((item) => item.text)).toEqual([report, open]);
  });

  it('stay apart when the longer one drops a term of the shorter', () => {
    const short = 'JSON is only processed on exit code 0';
    const long = 'Important: you must exit for JSON output to be processed by the hook runner';
    const folded = foldMemory(
      [],
      [
        { text: short, score: 1 },
        { text: long, score: 1 },
      ],
      1000,
      words,
    );
    expect(folded.map((item) => item.text)).toEqual([short, long]);
  });
});

describe('a fenced block inside a list section', () => {
  it('is no item: a sample payload never becomes a line', () => {
    const section = [
      '- SessionStart hooks cannot block the session from starting',
      '```json',
      '{',
      '  "session_id": "abc123",',
      '  "source": "startup"',
      '}',
      '```',
      '- Exit code 2 shows stderr to the user but does not block the session',
    ].join('\n');
    expect(listItems(section)).toEqual([
      'SessionStart hooks cannot block the session from starting',
      'Exit code 2 shows stderr to the user but does not block the session',
    ]);
  });
});

describe('a refused sub-item of a list', () => {
  // Written for this spec: a decision section whose item edits the docs, with what the new
  // drawing shows below it, and a lead-in whose only sub-items are refused.
  const section = [
    '1. **Retry Flow**:',
    '   * **Decision**: Sequence diagrams were added to `docs/retry.md` to show:',
    '       * The request waiting out its back-off before the second attempt.',
    '       * The queue holding the job while its lease is renewed by the worker.',
    '   * **Refinements**:',
    '       * Reworded the back-off paragraph in the guide.',
    '   * **Rationale**: Retries back off exponentially so a failing upstream is not flooded.',
  ].join('\n');
  const refuse = (line: string) => !/\b(?:diagrams?|reworded)\b/iu.test(line);

  it('takes its own sub-items with it, and a lead-in left with none is no item', () => {
    expect(listItems(section, refuse)).toEqual([
      'Retry Flow: Rationale: Retries back off exponentially so a failing upstream is not flooded.',
    ]);
  });

  it('joins a kept lead-in to its sub-items without a stray separator', () => {
    expect(listItems(section, (line) => !/\bdiagrams?\b/iu.test(line))).toEqual([
      'Retry Flow: Refinements: Reworded the back-off paragraph in the guide.; Rationale: Retries back off exponentially so a failing upstream is not flooded.',
    ]);
  });
});

describe('a remembered open line', () => {
  it.each([
    [
      'Open: whether to store vectors in pgvector or in SQLite',
      'User decision: store vectors in pgvector',
    ],
    [
      'Open: how about we cache embeddings on disk?',
      'User decision: how about we cache embeddings on disk?',
    ],
    [
      'Open: the sync loop hangs when the server restarts',
      'Commit: Fix sync loop hang on server restart',
    ],
  ])('does not say the decision or fix that settles it: %s', (open, settled) => {
    const folded = foldMemory(
      [{ text: open, score: 1 }],
      [{ text: settled, score: 1 }],
      1000,
      words,
    );
    expect(folded.map((item) => item.text)).toEqual([open, settled]);
  });

  it('still says the same question asked again', () => {
    const open = 'Open: whether to store vectors in pgvector or in SQLite';
    const folded = foldMemory(
      [{ text: open, score: 1 }],
      [{ text: 'Open: whether to store the vectors in pgvector or in SQLite?', score: 1 }],
      1000,
      words,
    );
    expect(folded.map((item) => item.text)).toEqual([open]);
  });
});
