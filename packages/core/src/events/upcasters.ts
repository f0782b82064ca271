import { uniformLines } from './memory-lines.js';
import { renameField, type UpcasterStep } from './upcast.js';

/*
 * Every read-time upcaster of the catalogue, one per (type, from-version), in the order the
 * versions were introduced. A chained log is never rewritten to migrate a field (each line's
 * hash is in the next line), so a schema change is a new version of the type plus a step here
 * that turns the previous version's line into the new one. Steps are never edited or removed
 * once released: some committed log holds lines of every version that ever existed.
 */
export const UPCASTERS: readonly UpcasterStep[] = [
  // recovery v1 → v2: `offset` became `truncated_at` (payloads.ts says why).
  { type: 'recovery', from: 1, upcast: (event) => renameField(event, 'offset', 'truncated_at') },
  // memory v1 → v2: lines became addressable. A v1 memory did not record which line came from
  // which chunk, so each of its lines rests on all of the memory's parents (as the extractor
  // has always carried an earlier run's lines over).
  {
    type: 'memory',
    from: 1,
    upcast: (event) => {
      const { symptom, prev, ...rest } = event;
      const text = typeof event.text === 'string' ? event.text : '';
      const parents = Array.isArray(event.parents)
        ? event.parents.filter((p): p is string => typeof p === 'string')
        : [];
      return {
        ...rest,
        lines: uniformLines(text, parents),
        ...(symptom !== undefined ? { symptom } : {}),
        prev,
      };
    },
  },
];
