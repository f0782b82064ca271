import { describe, expect, it } from 'vitest';
import { hasErrorCode } from '@mem/core';
import { parseNote } from './yaml-frontmatter.js';

function refusal(text: string): unknown {
  try {
    parseNote('p/x.md', text);
  } catch (error) {
    return error;
  }
  return undefined;
}

describe('parseNote', () => {
  it('reads plain YAML frontmatter and the body; dates stay the strings they were written as', () => {
    expect(
      parseNote(
        'p/x.md',
        '---\nproject: p\nlevel: L1\nupdated: 2026-08-17\nn: 3\nlist: [a, b]\n---\n# Title\n',
      ),
    ).toEqual({
      data: { project: 'p', level: 'L1', updated: '2026-08-17', n: 3, list: ['a', 'b'] },
      content: '# Title\n',
    });
    expect(parseNote('p/x.md', '# no frontmatter\n')).toEqual({
      data: {},
      content: '# no frontmatter\n',
    });
  });

  it('refuses every language marker, every non-core tag, aliases of collections and __proto__, naming the file', () => {
    const texts = [
      '---js\n{ a: 1 }\n---\n',
      '---javascript\n{ a: 1 }\n---\n',
      '--- coffee\na: 1\n---\n',
      '---toml\na = 1\n---\n',
      '---json\n{"a": 1}\n---\n',
      '---yaml\na: 1\n---\n',
      '---\na: !!js/function "function () {}"\n---\n',
      '---\na: !!js/undefined ""\n---\n',
      '---\na: !!binary aGVsbG8=\n---\n',
      '---\na: !!set {x}\n---\n',
      '---\nbase: &b {x: 1}\nmerged: {<<: *b}\n---\n',
      '---\na: &a [1]\nb: *a\n---\n',
      '---\n__proto__: {x: 1}\n---\n',
      '---\na: {__proto__: 1}\n---\n',
      '---\n- a list\n---\n',
      '---\na: [unclosed\n---\n',
    ];
    for (const text of texts) {
      const error = refusal(text);
      expect(hasErrorCode(error, 'FRONTMATTER_REFUSED'), text).toBe(true);
      expect((error as Error).message, text).toContain('p/x.md');
    }
  });
});
