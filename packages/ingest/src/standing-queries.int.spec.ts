import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isMemError, loadConfig } from '@mem/core';
import { loadStandingQueries, selectQueries } from './standing-queries.js';

let root: string;
beforeEach(() => {
  root = mkdtempSync(join(tmpdir(), 'mem-queries-'));
  mkdirSync(join(root, 'queries'));
  mkdirSync(join(root, 'sessions', 'claude'), { recursive: true });
  mkdirSync(join(root, 'home', '.claude', 'projects', '-home-me-proj'), { recursive: true });
  writeFileSync(join(root, 'sessions', 'claude', 'a.jsonl'), '');
});
afterEach(() => rmSync(root, { recursive: true, force: true }));

function write(text: string): void {
  writeFileSync(join(root, 'queries', 'proj.yaml'), text);
}

function load() {
  return loadStandingQueries(join(root, 'queries'), 'proj', {
    config: { MEM_CLAUDE_PROJECTS: join(root, 'home', '.claude', 'projects') },
  });
}

function failure(): { message: string; details: Record<string, unknown> } {
  try {
    load();
  } catch (error) {
    if (isMemError(error) && error.code === 'CONFIG_INVALID')
      return { message: error.message, details: error.details };
    throw error;
  }
  throw new Error('expected CONFIG_INVALID');
}

const VALID = `project: proj
sources:
  - claude:-home-me-proj
  - claude:../sessions/claude
  - pi:../sessions/claude/*.jsonl
queries:
  - id: infra
    question: What broke?
synthesis:
  question: What is the state?
`;

describe('loadStandingQueries', () => {
  it('loads a valid file, resolving names under the configured roots and paths relative to the file', () => {
    write(VALID);
    const config = load();
    expect(config.queries).toEqual([{ id: 'infra', question: 'What broke?' }]);
    expect(config.synthesis).toEqual({ question: 'What is the state?', exit_gate: true });
    expect(config.chunkTokens).toBe(5000);
    expect(config.memoryBudget).toBe(1024);
    expect(config.sources.map((s) => [s.kind, s.dir ?? s.files])).toEqual([
      ['claude', join(root, 'home', '.claude', 'projects', '-home-me-proj')],
      ['claude', join(root, 'sessions', 'claude')],
      ['pi', [join(root, 'sessions', 'claude', 'a.jsonl')]],
    ]);
  });

  it.each([
    [
      'an unknown source kind',
      VALID.replace('claude:-home-me-proj', 'slack:general'),
      /sources\[0\]: unknown source kind "slack"/,
      3,
    ],
    [
      'an empty question',
      VALID.replace('What broke?', '""'),
      /queries\[0\]\.question: expected a non-empty question/,
      8,
    ],
    [
      'a duplicate id',
      VALID.replace('synthesis:', '  - id: infra\n    question: Again?\nsynthesis:'),
      /queries\[1\]\.id: duplicate query id "infra"/,
      9,
    ],
    [
      'a missing directory',
      VALID.replace('../sessions/claude\n', '../sessions/nowhere\n'),
      /sources\[1\]: missing directory or file/,
      4,
    ],
    [
      'a name that does not resolve',
      VALID.replace('-home-me-proj', '-home-me-other'),
      /sources\[0\]: missing directory .*-home-me-other/,
      3,
    ],
    [
      "a project that is not the file's",
      VALID.replace('project: proj', 'project: other'),
      /project: expected "proj"/,
      1,
    ],
    ['an unknown field', `${VALID}colour: blue\n`, /unexpected field "colour"/, undefined],
    ['a glob matching nothing', VALID.replace('*.jsonl', '*.txt'), /sources\[2\]: the glob/, 5],
  ])('refuses %s, naming file, line and field', (_name, text, pattern, line) => {
    write(text);
    const { message, details } = failure();
    expect(message).toMatch(pattern);
    expect(message).toContain(join(root, 'queries', 'proj.yaml'));
    if (line !== undefined) expect(details['line']).toBe(line);
  });

  it('refuses YAML that does not parse, naming the line', () => {
    write('project: proj\nsources: [claude:x\n');
    expect(failure().message).toMatch(/proj\.yaml:\d+: not valid YAML/);
  });

  it('names the file when it is missing', () => {
    expect(failure().message).toMatch(/cannot read the standing queries of project proj/);
  });

  it('refuses a query id that does not exist, listing the ones that do', () => {
    write(VALID);
    const config = load();
    expect(() => selectQueries(config, 'nope')).toThrow(
      /no query with id "nope"; the queries are infra/,
    );
    expect(selectQueries(config, 'infra')).toHaveLength(1);
  });
});

describe('codex sources', () => {
  it('a bare codex:<name> resolves under MEM_CODEX_SESSIONS; a missing one names the variable', () => {
    mkdirSync(join(root, 'codex', '2025'), { recursive: true });
    write(
      'project: proj\nsources:\n  - codex:2025\nqueries:\n  - id: bugs\n    question: What broke?\n',
    );
    const config = loadConfig({ MEM_CODEX_SESSIONS: join(root, 'codex') });
    expect(loadStandingQueries(join(root, 'queries'), 'proj', { config }).sources).toEqual([
      { entry: 'codex:2025', kind: 'codex', dir: join(root, 'codex', '2025') },
    ]);
    write(
      'project: proj\nsources:\n  - codex:2031\nqueries:\n  - id: bugs\n    question: What broke?\n',
    );
    expect(() => loadStandingQueries(join(root, 'queries'), 'proj', { config })).toThrow(
      /set MEM_CODEX_SESSIONS to move it/u,
    );
  });

  it('a codex name may nest (Codex files by date: codex:2025/09); never out of the root', () => {
    mkdirSync(join(root, 'codex', '2025', '09'), { recursive: true });
    const config = loadConfig({ MEM_CODEX_SESSIONS: join(root, 'codex') });
    const load = () => loadStandingQueries(join(root, 'queries'), 'proj', { config });
    write(
      'project: proj\nsources:\n  - codex:2025/09\nqueries:\n  - id: bugs\n    question: What broke?\n',
    );
    expect(load().sources).toEqual([
      { entry: 'codex:2025/09', kind: 'codex', dir: join(root, 'codex', '2025', '09') },
    ]);
    for (const bad of ['codex:2025/../..', 'codex:2025//09', 'claude:a/b']) {
      write(
        `project: proj\nsources:\n  - ${bad}\nqueries:\n  - id: bugs\n    question: What broke?\n`,
      );
      expect(load, bad).toThrow(/sources\[0\]: missing directory/u);
    }
  });

  it('a codex source takes a cwd filter: ~ expands, relative is refused, other kinds are refused', () => {
    mkdirSync(join(root, 'codex', '2025'), { recursive: true });
    const config = loadConfig({ MEM_CODEX_SESSIONS: join(root, 'codex') });
    const load = () => loadStandingQueries(join(root, 'queries'), 'proj', { config });
    const file = (entry: string) =>
      `project: proj\nsources:\n${entry}\nqueries:\n  - id: bugs\n    question: What broke?\n`;
    write(file('  - source: codex:2025\n    cwd: /home/me/proj'));
    expect(load().sources).toEqual([
      {
        entry: 'codex:2025',
        kind: 'codex',
        dir: join(root, 'codex', '2025'),
        cwd: '/home/me/proj',
      },
    ]);
    write(file('  - source: codex:2025\n    cwd: ~/proj'));
    expect(load().sources[0]?.cwd).toBe(join(homedir(), 'proj'));
    write(file('  - source: codex:2025\n    cwd: /home/me/proj/../other/'));
    expect(load().sources[0]?.cwd).toBe('/home/me/other/');
    write(file('  - source: codex:2025\n    cwd: C:\\Users\\me\\proj'));
    expect(load().sources[0]?.cwd).toBe('C:\\Users\\me\\proj');
    const refusals: Array<[string, RegExp]> = [
      [
        '  - source: codex:2025\n    cwd: proj',
        /proj\.yaml:4: sources\[0\]\.cwd: expected an absolute directory/u,
      ],
      [
        '  - source: claude:-home-me-proj\n    cwd: /home/me/proj',
        /sources\[0\]\.cwd: a cwd filter applies only to codex sources/u,
      ],
      [
        '  - source: codex:2031\n    cwd: /home/me/proj',
        /sources\[0\]\.source: missing directory/u,
      ],
      ['  - source: codex:2025\n    cwd: /x\n    since: 2025', /unexpected field "since"/u],
      [
        '  - sorce: codex:2025\n    cwd: /x',
        /sources\[0\]: expected "<kind>:<name or path>", or a mapping with "source" and "cwd" \(a Codex filter\), got the fields "sorce", "cwd"/u,
      ],
      ['  - 42', /sources\[0\]: expected "<kind>:<name or path>", or a mapping .*, got 42/u],
    ];
    for (const [entry, message] of refusals) {
      write(file(entry));
      expect(() =>
        loadStandingQueries(join(root, 'queries'), 'proj', {
          config: { ...config, MEM_CLAUDE_PROJECTS: join(root, 'home', '.claude', 'projects') },
        }),
      ).toThrow(message);
    }
  });
});

describe("the README's standing-queries example", () => {
  it('loads as written, every source kind resolved (the README stays true)', () => {
    const readme = readFileSync(join(import.meta.dirname, '..', '..', '..', 'README.md'), 'utf8');
    const after = readme.slice(readme.indexOf("A project's standing questions live in"));
    const yaml = /```yaml\n([\s\S]*?)```/u.exec(after)?.[1];
    expect(yaml).toContain('project: poimen');
    writeFileSync(join(root, 'queries', 'poimen.yaml'), yaml!);
    mkdirSync(join(root, 'queries', 'artifacts'));
    mkdirSync(join(root, 'claude', '-Users-me-workplace-Poimen'), { recursive: true });
    mkdirSync(join(root, 'pi', '--Users-me-workplace-Poimen--'), { recursive: true });
    mkdirSync(join(root, 'codex', '2026', '11'), { recursive: true });
    // Its `cites:` entry names a directory under the data root, which must exist (stop 32).
    mkdirSync(join(root, 'docs', 'poimen'), { recursive: true });
    const config = loadConfig({
      MEM_CLAUDE_PROJECTS: join(root, 'claude'),
      MEM_PI_SESSIONS: join(root, 'pi'),
      MEM_CODEX_SESSIONS: join(root, 'codex'),
    });
    const loaded = loadStandingQueries(join(root, 'queries'), 'poimen', { config });
    expect(loaded.sources.map((s) => [s.kind, s.dir, s.cwd])).toEqual([
      ['claude', join(root, 'claude', '-Users-me-workplace-Poimen'), undefined],
      ['pi', join(root, 'pi', '--Users-me-workplace-Poimen--'), undefined],
      ['codex', join(root, 'codex', '2026', '11'), join(homedir(), 'workplace', 'Poimen')],
      ['loop', join(root, 'queries', 'artifacts'), undefined],
    ]);
  });
});

describe('a field of the wrong type', () => {
  it('is named as the wrong type, not as missing (zod 4 leaves the value out of its issue)', () => {
    write(`${VALID}chunk_tokens: abc\n`);
    expect(failure().message).toMatch(/chunk_tokens: expected number, received string/u);
    expect(failure().message).not.toMatch(/missing field/u);
  });
});
