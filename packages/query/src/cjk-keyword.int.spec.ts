import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evidence, fillerNotes, memory, run, type TestStore, testStore } from '../test/store.js';
import { queryMemory } from './query-memory.js';

/*
 * Issue 13 §5: a CJK word inside a longer run of a memory line is found by `mem query`'s keyword
 * side (node_fts indexes each CJK run as bigrams, fts-text.ts; a CJK term is their phrase), and
 * a word that is not in the text finds nothing — the bigrams of 東京都 scattered over 東京と京都
 * are not 東京都.
 */
const JA = 'テーマローダーはキャッシュを使う。';
const ZH = '我们在服务器上部署了缓存系统。';
const KO = '테마로더는캐시를사용한다.';
const TRIP = '東京と京都を旅した。';
const TOKYO = '東京都の人口は多い。';
const MIXED = 'Redisのキャッシュを本番で有効にした。';
/** The memory lines (each memory `- line`), as a hit's text gives them. */
const LINES = [JA, ZH, KO, TRIP, TOKYO, MIXED];

let store: TestStore;

beforeAll(async () => {
  store = await testStore({
    demo: [
      ...LINES.flatMap((line, i) => [
        run(`r-${i}`, 'L1', `cjk-${i}`),
        evidence(`r-${i}`, 1, line),
        memory(`r-${i}`, 'L1', 1, `- ${line}`, [line]),
      ]),
      ...fillerNotes(40),
    ],
  });
});
afterAll(() => store.cleanup());

const ask = (text: string) =>
  queryMemory({ text, projects: ['demo'], limit: 10 }, { items: store.items });

/** The texts of the keyword hits of `text`, with the terms each was reported to match. */
async function hits(text: string): Promise<[string, string[]][]> {
  const answer = await ask(text);
  return answer.results
    .filter((r) => r.ranking.keyword)
    .map((r) => [r.text, r.ranking.keyword!.matched_terms]);
}

describe('mem query keyword side: CJK words inside a memory line', () => {
  it.each([
    ['Japanese', 'キャッシュ', [JA, MIXED]],
    ['Japanese, a longer word', 'テーマローダー', [JA]],
    ['Chinese', '缓存', [ZH]],
    ['Korean', '캐시', [KO]],
    ['two characters at a run’s end', '人口', [TOKYO]],
  ])('%s: %s', async (_what, term, lines) => {
    const found = await hits(term);
    expect(found.map(([text]) => text).sort()).toEqual([...lines].sort());
    for (const [, terms] of found) expect(terms).toEqual([term]);
  });

  it('a one-character query finds the character wherever it stands in a run', async () => {
    expect((await hits('都')).map(([text]) => text).sort()).toEqual([TRIP, TOKYO].sort());
  });

  it('東京都 does not find 東京と京都 (scattered bigrams), nor a word absent from every line', async () => {
    expect((await hits('東京都')).map(([text]) => text)).toEqual([TOKYO]);
    expect(await hits('大阪')).toEqual([]);
    expect(await hits('ャキ')).toEqual([]);
  });

  it('mixed CJK and Latin: the Latin word, and both as written, each reported as typed', async () => {
    expect(await hits('Redis')).toEqual([[MIXED, ['redis']]]);
    expect(await hits('Redisのキャッシュ')).toEqual([[MIXED, ['redisのキャッシュ']]]);
    const both = await hits('Redis キャッシュ');
    expect(both[0]).toEqual([MIXED, ['redis', 'キャッシュ']]);
    expect(both.map(([text]) => text).sort()).toEqual([JA, MIXED].sort());
  });

  it('halfwidth katakana finds the fullwidth word, reported as typed', async () => {
    expect(await hits('ｷｬｯｼｭ')).toEqual(
      expect.arrayContaining([
        [JA, ['ｷｬｯｼｭ']],
        [MIXED, ['ｷｬｯｼｭ']],
      ]),
    );
  });
});
