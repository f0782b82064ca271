import { describe, expect, it } from 'vitest';
import type { LoadedGoldSet } from './gold-set.js';
import { scoreRouting } from './route-score.js';

const finding = (id: string, statement: string) => ({ id, statement, keywords: ['x'] });

const gold = {
  version: 1,
  labelled_by: 'a test',
  transcripts: '.',
  transcriptsDir: '.',
  file: 'g.json',
  queries: [
    { id: 'decisions', question: 'What architectural decisions were made?' },
    { id: 'bugs', question: 'What bugs were found and how were they fixed?' },
    { id: 'open', question: 'What questions were left unresolved?' },
  ],
  synthesis: { question: 'What is the state?', exit_gate: true },
  noise: [],
  files: [
    {
      path: 'a.jsonl',
      kind: 'pi',
      split: 'tuning',
      summary: 's',
      findings: {
        decisions: [finding('d1', 'Sessions are stored append-only, one file per session')],
        bugs: [
          finding('b1', 'The upload test failed on CI; a longer timeout fixed it'),
          // Labelled a bug, but its words state a choice: the router sends it to decisions.
          finding('b2', 'The importer uses the streaming parser'),
        ],
        open: [finding('o1', 'Whether the cache is shared across workers was never decided')],
        synthesis: [finding('s1', 'The project is released weekly')],
      },
    },
  ],
} as unknown as LoadedGoldSet;

describe('scoreRouting', () => {
  it('routes each labelled statement by its words and counts those sent to their question', () => {
    const score = scoreRouting(gold, gold.files);
    expect(score).toEqual({
      statements: 4,
      routed: 3,
      accuracy: 0.75,
      per_query: {
        decisions: { statements: 1, routed: 1 },
        bugs: { statements: 2, routed: 1 },
        open: { statements: 1, routed: 1 },
      },
      misrouted: [{ id: 'b2', labelled: 'bugs', routed: 'decisions' }],
    });
  });

  it('counts a statement routed when its own question takes its kind, though an earlier one does too', () => {
    const tools = {
      ...gold,
      queries: [
        { id: 'bugs', question: 'What bugs were found and how were they fixed?' },
        { id: 'tools', question: 'Which tool calls or commands failed, with what error?' },
      ],
      files: [
        {
          ...gold.files[0]!,
          findings: {
            bugs: [finding('b1', 'The upload test failed on CI; a longer timeout fixed it')],
            tools: [
              finding('t1', '`npm run check` failed with TS2339 in agent-session.ts'),
              // A product bug, no run: the bugs question takes it, the tool question does not.
              finding('t2', 'The theme picker crashed on an invalid colour'),
            ],
          },
        },
      ],
    } as unknown as LoadedGoldSet;
    const score = scoreRouting(tools, tools.files);
    expect(score.per_query).toEqual({
      bugs: { statements: 1, routed: 1 },
      tools: { statements: 2, routed: 1 },
    });
    expect(score.misrouted).toEqual([{ id: 't2', labelled: 'tools', routed: 'bugs' }]);
  });
});
