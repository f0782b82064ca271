import { afterEach, describe, expect, it } from 'vitest';
import { asRoot, registryAt, tempDataRoot } from '../../../../../test/api/support.js';
import type { Registry } from '../../registry.js';

/*
 * Issue 13 §5: find_items finds a Japanese, Chinese or Korean word inside a longer run of an
 * item's text (node_fts and item_fts index each CJK run as bigrams, fts-text.ts; a CJK term is
 * their phrase), ranks CJK matches by BM25 like any other, reports the terms as the user typed
 * them, and still reads the input as text, never as FTS5 syntax.
 */
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

type Found = {
  total: number;
  items: { id: string; summary: string; matched_terms?: string[] }[];
};

const JA = 'テーマローダーはキャッシュを使う。';
const ZH = '我们在服务器上部署了缓存系统。';
const KO = '테마로더는캐시를사용한다.';
const TRIP = '東京と京都を旅した。';
const TOKYO = '東京都の人口は多い。';
const MIXED = 'Redisのキャッシュを本番で有効にした。';
const LATIN = 'The theme loader caches rendered templates.';

async function setup(): Promise<Registry> {
  const { root, cleanup } = tempDataRoot(['alpha']);
  const registry = await registryAt(root, { runJobs: false });
  cleanups.push(cleanup, () => registry.close());
  await asRoot(registry, 'add_items', {
    project: 'alpha',
    items: [JA, ZH, KO, TRIP, TOKYO, MIXED, LATIN].map((summary) => ({ type: 'fact', summary })),
  });
  return registry;
}

const find = (registry: Registry, query: string) =>
  asRoot(registry, 'find_items', { projects: ['alpha'], query }) as Promise<Found>;

const summaries = (found: Found) => found.items.map((i) => i.summary).sort();

describe('find_items: CJK words inside a run', () => {
  it('finds Japanese, Chinese and Korean words inside a sentence, reported as typed, totals exact', async () => {
    const registry = await setup();
    for (const [query, expected] of [
      ['キャッシュ', [JA, MIXED]],
      ['テーマローダー', [JA]],
      ['缓存', [ZH]],
      ['服务器', [ZH]],
      ['캐시', [KO]],
      ['人口', [TOKYO]],
    ] as const) {
      const found = await find(registry, query);
      expect(summaries(found), query).toEqual([...expected].sort());
      expect(found.total, query).toBe(expected.length);
      for (const item of found.items) expect(item.matched_terms).toEqual([query]);
    }
  });

  it('one character finds it anywhere in a run; 東京都 is not 東京と京都; an absent word finds nothing', async () => {
    const registry = await setup();
    expect(summaries(await find(registry, '都'))).toEqual([TOKYO, TRIP].sort());
    expect(summaries(await find(registry, '東京都'))).toEqual([TOKYO]);
    expect(summaries(await find(registry, '京都'))).toEqual([TOKYO, TRIP].sort());
    expect(await find(registry, '大阪')).toMatchObject({ total: 0, items: [] });
    expect(await find(registry, 'ャキ')).toMatchObject({ total: 0, items: [] });
  });

  it('mixed CJK and Latin, and Latin alone as before', async () => {
    const registry = await setup();
    expect(summaries(await find(registry, 'redis'))).toEqual([MIXED]);
    const written = await find(registry, 'Redisのキャッシュ');
    expect(written.items.map((i) => [i.summary, i.matched_terms])).toEqual([
      [MIXED, ['redisのキャッシュ']],
    ]);
    const both = await find(registry, 'Redis キャッシュ');
    expect(both.items.map((i) => [i.summary, i.matched_terms])).toEqual([
      [MIXED, ['redis', 'キャッシュ']],
      [JA, ['キャッシュ']],
    ]);
    expect(summaries(await find(registry, 'theme loader'))).toEqual([LATIN]);
  });

  it('ranks by BM25 over the bigrams: more CJK terms matched first, a shorter text before a longer', async () => {
    const registry = await setup();
    await asRoot(registry, 'add_items', {
      project: 'alpha',
      items: [
        { type: 'fact', summary: 'キャッシュ', detail: 'テーマ' },
        {
          type: 'fact',
          summary: 'キャッシュの設定は長い説明の中にあり、ほかの話題もたくさん書いてある。',
        },
      ],
    });
    const found = await find(registry, 'キャッシュ テーマ');
    expect(found.items[0]!.summary).toBe('キャッシュ');
    expect(found.items[0]!.matched_terms).toEqual(['キャッシュ', 'テーマ']);
    const one = (await find(registry, 'キャッシュ')).items.map((i) => i.summary);
    expect(one[0]).toBe('キャッシュ');
    expect(
      one.indexOf('キャッシュの設定は長い説明の中にあり、ほかの話題もたくさん書いてある。'),
    ).toBe(one.length - 1);
  });

  it.each([
    ['a column filter', 'text:キャッシュ', [JA, MIXED]],
    ['a prefix star', 'キャッシ*', [JA, MIXED]],
    ['an unbalanced quote', '"缓存', [ZH]],
    ['NEAR and parentheses', 'NEAR(缓存 캐시)', [ZH, KO]],
    ['NOT', '缓存 NOT 캐시', [ZH, KO]],
    ['fullwidth punctuation and ideographic space', '「キャッシュ」　（缓存）', [JA, MIXED, ZH]],
  ])('CJK input with %s is text: %j', async (_what, query, expected) => {
    const registry = await setup();
    expect(summaries(await find(registry, query))).toEqual([...expected].sort());
  });
});
