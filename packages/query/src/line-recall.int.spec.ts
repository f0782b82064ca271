import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  evidence,
  fillerNotes,
  linedMemory,
  sha,
  type TestStore,
  testStore,
  tombstone,
} from '../test/store.js';
import { CRASH, DECISION, E_CRASH, E_DECISION, themeCrashNote } from '../test/theme-crash.js';
import { queryMemory } from './query-memory.js';

/*
 * Issue 11 §3, lines as the unit of recall: a memory holding a bug and an unrelated decision
 * answers "why did the theme loader crash?" with the one line about the crash, cited to the
 * chunk that line came from, and says which note it belongs to.
 */

const LATER = 'Release notes are written by hand for each minor version.';
const E_LATER = 'Release notes: we write them by hand for every minor version, no generator.';

let store: TestStore;

beforeAll(async () => {
  store = await testStore({
    demo: [...themeCrashNote(), ...fillerNotes(6)],
  });
});
afterAll(() => store.cleanup());

describe('queryMemory: lines are the unit of recall', () => {
  it('answers with the matching line, cited to its own chunk only, with its note', async () => {
    const answer = await queryMemory(
      { text: 'why did the theme loader crash?', projects: ['demo'] },
      { items: store.items },
    );
    const first = answer.results[0]!;
    expect(first).toMatchObject({ level: 'L1', tier: 'memory', sha256: sha(CRASH), text: CRASH });
    expect(first.parents.map((p) => p.sha256)).toEqual([sha(E_CRASH)]);
    const memorySha = sha(`- ${CRASH}\n- ${DECISION}`);
    expect(first.note).toEqual({
      level: 'L1',
      sha256: memorySha,
      query_id: 'bugs-and-decisions',
      path: 'demo/bugs-and-decisions.md',
    });
    // The unrelated decision is not part of the answer, and the whole memory never is.
    expect(answer.results.map((r) => r.sha256)).not.toContain(sha(DECISION));
    expect(answer.results.map((r) => r.sha256)).not.toContain(memorySha);
  });

  it('a line leaves recall with its memory, and stays while another live memory holds it', async () => {
    await store.append('demo', [
      evidence('r-1', 3, E_LATER),
      linedMemory('r-1', 'L1', 3, [
        [DECISION, [E_DECISION]],
        [LATER, [E_LATER]],
      ]),
    ]);
    const crash = await queryMemory(
      { text: 'why did the theme loader crash?', projects: ['demo'] },
      { items: store.items },
    );
    expect(crash.results.map((r) => r.sha256)).not.toContain(sha(CRASH));
    const toml = await queryMemory(
      { text: 'settings TOML YAML', projects: ['demo'] },
      { items: store.items },
    );
    expect(toml.results[0]).toMatchObject({
      sha256: sha(DECISION),
      note: { sha256: sha(`- ${DECISION}\n- ${LATER}`) },
    });
    await store.append('demo', [tombstone(`- ${DECISION}\n- ${LATER}`)]);
    const gone = await queryMemory(
      { text: 'settings TOML YAML', projects: ['demo'] },
      { items: store.items },
    );
    expect(gone.results.map((r) => r.sha256)).not.toContain(sha(DECISION));
  });
});
