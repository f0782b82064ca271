import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { GOLD_SPLITS, SYNTHESIS_KEY, loadGoldSet } from './gold-set.js';

/*
 * The committed gold set: it loads, both halves hold findings, every question is labelled for
 * every file (an empty list says "nothing worth keeping"), and each keyword has an alternative
 * its transcript contains — a keyword no line of the source could contain would be a finding no
 * copying extractor can score. Other alternatives may be paraphrases a model would write.
 */
const gold = loadGoldSet(join(import.meta.dirname, '..', 'gold', 'transcripts.gold.json'));

describe('the committed gold set', () => {
  it('splits the files into a tuning and a held-out half, each with findings', () => {
    for (const split of GOLD_SPLITS) {
      const files = gold.files.filter((f) => f.split === split);
      expect(files.length, split).toBeGreaterThan(0);
      expect(files.flatMap((f) => Object.values(f.findings).flat()).length, split).toBeGreaterThan(
        10,
      );
    }
  });

  it('labels every question of every file', () => {
    const keys = [...gold.queries.map((q) => q.id), SYNTHESIS_KEY].sort();
    for (const file of gold.files)
      expect(Object.keys(file.findings).sort(), file.path).toEqual(keys);
  });

  it('has keywords grounded in their transcripts', () => {
    const absent: string[] = [];
    for (const file of gold.files) {
      const text = readFileSync(join(gold.transcriptsDir, file.path), 'utf8')
        .replace(/\\n/g, '\n')
        .toLowerCase();
      for (const finding of Object.values(file.findings).flat()) {
        for (const keyword of finding.keywords) {
          const alternatives = typeof keyword === 'string' ? [keyword] : keyword;
          if (!alternatives.some((a) => text.includes(a.toLowerCase())))
            absent.push(`${file.path} ${finding.id}: ${JSON.stringify(keyword)}`);
        }
      }
    }
    expect(absent).toEqual([]);
  });
});
