import { describe, expect, it } from 'vitest';
import { markdownSections } from './sections.js';
import { documentPassages, MAX_PASSAGE_CHARS } from './passages.js';

const paths = (md: string) => markdownSections(md).map((s) => s.heading_path);

describe('markdownSections', () => {
  it('splits at ATX headings and carries the heading path down', () => {
    const md = 'intro\n# Guide\ntext\n## Install\nnpm i\n### Linux\napt\n## Use ##\nrun\n# API\nx';
    expect(paths(md)).toEqual([
      [],
      ['Guide'],
      ['Guide', 'Install'],
      ['Guide', 'Install', 'Linux'],
      ['Guide', 'Use'],
      ['API'],
    ]);
  });

  it('reads setext headings, and a --- after a blank line as a rule, not a heading', () => {
    const md = 'Title\n=====\nbody\n\n---\n\nSub part\n--------\nmore';
    const sections = markdownSections(md);
    expect(sections.map((s) => s.heading_path)).toEqual([['Title'], ['Title', 'Sub part']]);
    expect(sections[0]!.lines).toContain('---');
  });

  it('never splits inside a fenced code block, whatever its fence', () => {
    const md = '# Shell\n```sh\n# not a heading\n```\n~~~~\n## nor this\n~~~\n~~~~\n# Next\nx';
    const sections = markdownSections(md);
    expect(sections.map((s) => s.heading_path)).toEqual([['Shell'], ['Next']]);
    expect(sections[0]!.lines).toContain('# not a heading');
    expect(sections[0]!.lines).toContain('## nor this');
  });

  it('drops front matter, and needs a space after the hashes', () => {
    const md = '---\ntitle: x\n---\n#hashtag line\n# Real\nbody';
    const sections = markdownSections(md);
    expect(sections.map((s) => s.heading_path)).toEqual([[], ['Real']]);
    expect(sections[0]!.lines).toEqual(['#hashtag line']);
  });

  it('does not turn a list item over --- into a heading', () => {
    expect(paths('- item\n---\n# H\nx')).toEqual([[], ['H']]);
  });
});

describe('documentPassages', () => {
  it('splits an oversized section at blank lines, each piece within the cap', () => {
    const para = 'word '.repeat(500).trim();
    const md = `# Big\n${Array.from({ length: 8 }, (_, i) => `${para} ${i}`).join('\n\n')}`;
    const passages = documentPassages(md, true);
    expect(passages.length).toBeGreaterThan(1);
    expect(passages.every((p) => p.text.length <= MAX_PASSAGE_CHARS)).toBe(true);
    expect(passages.every((p) => p.heading_path.join('/') === 'Big')).toBe(true);
  });

  it('scrubs a secret before hashing, and a plain-text file is one passage', () => {
    const key = `sk-ant-api03-${'a'.repeat(90)}`;
    const [p] = documentPassages(`# Setup\nexport ANTHROPIC_API_KEY=${key}`, true);
    expect(p!.text).not.toContain(key);
    expect(documentPassages('# not markdown here\nline', false)).toHaveLength(1);
  });
});
