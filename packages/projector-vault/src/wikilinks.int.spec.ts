import fc from 'fast-check';
import { afterAll, describe, expect, it } from 'vitest';
import { chainEvents } from '../../../test/support/events.js';
import { arbitraryLog } from '../test/arbitrary-log.js';
import { chunk, evidence, gate, l1Run, memory, sha } from '../test/payloads.js';
import {
  applyBatches,
  readTree,
  removeTempTargets,
  sampleEvents,
  tempTarget,
} from '../test/support.js';

afterAll(removeTempTargets);

/** A wikilink as Obsidian reads it: `[[target#^block|alias]]`. */
const WIKILINK = /\[\[([^\]|#\n]*)(?:#\^([^\]|\n]*))?(?:\|[^\]\n]*)?\]\]/g;

/**
 * Every wikilink in every note of `tree` that does not resolve: its target must be a written
 * note (vault-relative path without `.md`, as this projector writes them), and a `#^block`
 * must be a block id that note declares at the end of one of its lines.
 */
function danglingLinks(tree: ReadonlyMap<string, string>): string[] {
  const dangling: string[] = [];
  for (const [path, text] of tree) {
    for (const [link, target = '', block] of text.matchAll(WIKILINK)) {
      const note = tree.get(`${target}.md`);
      if (note === undefined) dangling.push(`${path}: ${link} (no note ${target}.md)`);
      else if (block !== undefined && !new RegExp(`\\s\\^${block}$`, 'm').test(note))
        dangling.push(`${path}: ${link} (no block ^${block} in ${target}.md)`);
    }
  }
  return dangling;
}

async function projected(
  events: Parameters<typeof applyBatches>[2][number],
  emitEvidenceNotes: boolean,
): Promise<Map<string, string>> {
  const target = await tempTarget({ emitEvidenceNotes });
  await applyBatches(target, 'demo', [events]);
  return readTree(target.vaultDir);
}

describe('every wikilink the vault writes resolves to a note it writes', () => {
  for (const emitEvidenceNotes of [false, true]) {
    it(`the sample runs, evidence notes ${emitEvidenceNotes ? 'on' : 'off'}`, async () => {
      const tree = await projected(await sampleEvents('demo'), emitEvidenceNotes);
      expect([...tree.values()].some((text) => text.includes('[['))).toBe(true);
      expect(danglingLinks(tree)).toEqual([]);
    });
  }

  it('text that holds `[[…]]` (a shell test, a regex) never becomes a link', async () => {
    const text =
      'The check `if [[ -f lock ]]; then` failed: the lock file [[stale]] was left behind.';
    const events = chainEvents('demo', [
      l1Run('r1', 'q'),
      chunk('r1', 1, 'pi:s', 'L0', sha(text)),
      gate('r1', 1, true),
      evidence('r1', 1, 'pi:s', text),
      memory('r1', 1, `- ${text}`, [sha(text)]),
    ]);
    for (const emitEvidenceNotes of [false, true])
      expect(danglingLinks(await projected(events, emitEvidenceNotes))).toEqual([]);
  });

  it('random valid logs, with and without evidence notes', async () => {
    await fc.assert(
      fc.asyncProperty(arbitraryLog('demo'), fc.boolean(), async (events, emitEvidenceNotes) => {
        expect(danglingLinks(await projected(events, emitEvidenceNotes))).toEqual([]);
        await removeTempTargets();
      }),
      { numRuns: 40 },
    );
  });
});
