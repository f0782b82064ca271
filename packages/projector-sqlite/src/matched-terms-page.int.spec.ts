import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sealedStoreOf, tempRoot } from '../test/support.js';
import { openItemStore } from './item-store.js';

const P = 'demo';
const summaries = [
  'The theme loaders cache parsed themes',
  'Port the loader to ES modules',
  'e-mail the caching team about the loader',
  'Café menus: résumé of the theming work',
  'テーマローダーは解析済みのテーマをキャッシュする',
  'Nothing relevant here',
  'Loading themes, loaded themes, loader loaded',
];
const payloads = summaries.map((summary, i) => ({
  type: 'item_added',
  item_type: i % 2 === 0 ? 'task' : 'fact',
  summary,
  ...(i === 2 ? { detail: 'NEAR the "quoted" loader * column:text' } : {}),
}));

// Quoted as find quotes each term (packages/query matchExpression): stems, a split word, an
// accent, CJK, and words FTS5 would otherwise read as syntax.
const terms = [
  'loader',
  'themes',
  'e-mail',
  'cafe',
  'resume',
  'テーマ',
  'near',
  'column',
  'and',
  'x',
];
const expressions = terms.map((t) => `"${t.replaceAll('"', '""')}"`);

describe("a find page's matched terms", () => {
  let root: ReturnType<typeof tempRoot>;
  beforeEach(() => {
    root = tempRoot();
  });
  afterEach(() => root.cleanup());

  it('are the ones node_fts matches, for any page, read from the page alone', async () => {
    const { db } = await sealedStoreOf(root.target, P, payloads);
    db.close();
    const store = openItemStore(`${root.target.stateDir}/items.sqlite`);
    try {
      const ids = store.nodes({ project: P, kind: 'item' }).map((n) => n.id);
      expect(ids).toHaveLength(summaries.length);
      const pages = [ids, ids.slice(0, 3), ids.slice(3), [ids[4]!], [ids[5]!, ids[0]!]];
      expect(store.matchedTerms(expressions, ids).size, 'items holding a term').toBe(5);
      for (const page of pages) {
        const whole = store.matchedTerms(expressions, page);
        expect(store.matchedTermsOfPage(expressions, page)).toEqual(whole);
        // Twice: the page table is emptied after each read.
        expect(store.matchedTermsOfPage(expressions, page)).toEqual(whole);
      }
      expect(store.matchedTermsOfPage(expressions, [])).toEqual(new Map());
      expect(store.matchedTermsOfPage([], ids)).toEqual(new Map());
    } finally {
      store.close();
    }
  });
});
