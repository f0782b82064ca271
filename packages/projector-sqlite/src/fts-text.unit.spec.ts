import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { ftsIndexText, ftsPhrase } from './fts-text.js';
import { TOKENIZE } from './keyword-statistics.js';

/** Which of `texts` FTS5 (node_fts's tokenizer) finds for the term, indexed and asked as fts-text.ts writes them. */
function found(texts: readonly string[], term: string): string[] {
  const db = new Database(':memory:');
  try {
    db.exec(`CREATE VIRTUAL TABLE f USING fts5 (text, ${TOKENIZE})`);
    const add = db.prepare('INSERT INTO f (rowid, text) VALUES (?, ?)');
    texts.forEach((text, i) => add.run(i + 1, ftsIndexText(text)));
    const ids = db
      .prepare('SELECT rowid FROM f WHERE f MATCH ? ORDER BY rowid')
      .pluck()
      .all(ftsPhrase(term)) as number[];
    return ids.map((id) => texts[id - 1]!);
  } finally {
    db.close();
  }
}

describe('fts-text: CJK runs as bigrams, index and query alike', () => {
  it('leaves text with no CJK character exactly as it is, and its phrase as before', () => {
    for (const text of ['Theme loader 7: cache it.', 'naïve café — ünïcode', '', '🚀 rockets'])
      expect(ftsIndexText(text)).toBe(text);
    expect(ftsPhrase('loader')).toBe('"loader"');
    expect(ftsPhrase('a"b')).toBe('"a""b"');
  });

  it('writes a run as its bigrams and its last character, apart from the Latin beside it', () => {
    expect(ftsIndexText('東京都')).toBe(' 東京 京都 都 ');
    expect(ftsIndexText('Redisのキャッシュ。')).toBe('Redis のキ キャ ャッ ッシ シュ ュ 。');
    expect(ftsIndexText('字')).toBe(' 字 ');
    expect(ftsPhrase('キャッシュ')).toBe('"キャ ャッ ッシ シュ"');
    expect(ftsPhrase('都')).toBe('"都"*');
    expect(ftsPhrase('redisのキャッシュ')).toBe('"redis のキ キャ ャッ ッシ シュ"');
    expect(ftsPhrase('京都abc')).toBe('"京都 都 abc"');
  });

  it('finds a Japanese, Chinese and Korean word inside a sentence', () => {
    const ja = 'テーマローダーはキャッシュを使う。';
    const zh = '我们在服务器上部署了缓存系统。';
    const ko = '테마로더는캐시를사용한다.';
    const texts = [ja, zh, ko, 'The theme loader uses a cache.'];
    expect(found(texts, 'キャッシュ')).toEqual([ja]);
    expect(found(texts, 'テーマローダー')).toEqual([ja]);
    expect(found(texts, '缓存')).toEqual([zh]);
    expect(found(texts, '服务器')).toEqual([zh]);
    expect(found(texts, '캐시')).toEqual([ko]);
    expect(found(texts, 'cache')).toEqual(['The theme loader uses a cache.']);
  });

  it('a one-character query finds the character anywhere in a run: first, middle, last, alone', () => {
    const texts = ['都庁へ行く', '東京都', '京都', 'a都b', '大阪'];
    expect(found(texts, '都')).toEqual(['都庁へ行く', '東京都', '京都', 'a都b']);
    expect(found(texts, '阪')).toEqual(['大阪']);
    expect(found(texts, '東')).toEqual(['東京都']);
  });

  it('a two-character query finds the pair, at the start, inside and at the end of a run', () => {
    const texts = ['東京都庁', '東京と京都', '北京', '京'];
    expect(found(texts, '東京')).toEqual(['東京都庁', '東京と京都']);
    expect(found(texts, '都庁')).toEqual(['東京都庁']);
    expect(found(texts, '北京')).toEqual(['北京']);
  });

  it('the bigrams must stand together: 東京都 does not find 東京と京都; 京都 is found inside 東京都 (substring)', () => {
    const texts = ['東京と京都を旅した', '東京都の人口', '京都の寺'];
    expect(found(texts, '東京都')).toEqual(['東京都の人口']);
    expect(found(texts, '京都')).toEqual(['東京と京都を旅した', '東京都の人口', '京都の寺']);
    expect(found(texts, '都京')).toEqual([]);
    expect(found(texts, '大阪')).toEqual([]);
  });

  it('mixed CJK and Latin: each side found alone, and the two together as written', () => {
    const texts = ['Redisのキャッシュを使う', 'API키를 발급했다', 'Redis cluster'];
    expect(found(texts, 'redis')).toEqual(['Redisのキャッシュを使う', 'Redis cluster']);
    expect(found(texts, 'キャッシュ')).toEqual(['Redisのキャッシュを使う']);
    expect(found(texts, 'redisのキャッシュ')).toEqual(['Redisのキャッシュを使う']);
    expect(found(texts, 'api키')).toEqual(['API키를 발급했다']);
    expect(found(texts, '키를')).toEqual(['API키를 발급했다']);
  });

  it('a run is indexed in NFC, as keyword-terms.ts writes a query: decomposed kana, compatibility ideographs', () => {
    const nfd = 'テーマのか\u3099き\u3099を探す'; // がぎ decomposed, as macOS writes file names
    const compat = '\uF900の話'; // CJK COMPATIBILITY IDEOGRAPH-F900, NFC U+8C48
    expect(found([nfd, compat], 'がぎ'.normalize('NFC'))).toEqual([nfd]);
    expect(found([nfd, compat], '\uF900'.normalize('NFC'))).toEqual([compat]);
  });

  it('halfwidth katakana and fullwidth Latin fold to their common forms (NFKC), both ways', () => {
    const texts = ['ｷｬｯｼｭを使う', 'キャッシュ層', 'ＡＰＩ設計'];
    expect(found(texts, 'キャッシュ')).toEqual(['ｷｬｯｼｭを使う', 'キャッシュ層']);
    expect(found(texts, 'ｷｬｯｼｭ')).toEqual(['ｷｬｯｼｭを使う', 'キャッシュ層']);
    expect(found(texts, 'api')).toEqual(['ＡＰＩ設計']);
  });
});
