import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';

/*
 * The tree shows the authority model (STYLE "Shape"): arrows point one way,
 * core ← log ← engine ← (writers, projectors, query) ← (cli, server).
 * Each package lists the workspace packages it may import; a new package must be added
 * here on purpose. Third-party libraries the user chose live in exactly one package.
 */
const ALLOWED: Record<string, readonly string[]> = {
  core: [],
  log: ['core'],
  engine: ['core', 'log'],
  chunk: ['core'],
  sources: ['core', 'chunk'],
  llm: ['core'],
  'projector-sqlite': ['core', 'engine'],
  'projector-vault': ['core', 'engine'],
  extractor: ['core', 'chunk', 'llm'],
  embed: ['core', 'llm'],
  'projector-pgvector': ['core', 'engine', 'embed'],
  ingest: ['core', 'chunk', 'engine', 'extractor', 'llm', 'projector-sqlite', 'sources'],
  query: ['core', 'embed', 'projector-sqlite', 'projector-pgvector'],
  eval: ['core', 'chunk', 'extractor', 'engine', 'embed', 'projector-sqlite', 'projector-pgvector', 'query'],
  registry: ['core', 'chunk', 'engine', 'log', 'sources', 'ingest', 'projector-sqlite', 'projector-vault', 'query'],
  server: ['core', 'registry'],
  mcp: ['core', 'registry'],
  cli: ['core', 'log', 'engine', 'chunk', 'sources', 'extractor', 'ingest', 'eval', 'llm', 'projector-sqlite', 'projector-vault', 'query', 'registry', 'server', 'mcp', 'embed', 'projector-pgvector'],
};

const EXCLUSIVE: Record<string, string> = {
  'better-sqlite3': 'projector-sqlite',
  'gray-matter': 'projector-vault',
  'js-yaml': 'projector-vault',
  commander: 'cli',
  yaml: 'ingest',
  pg: 'projector-pgvector',
  '@electric-sql/pglite': 'projector-pgvector',
  '@electric-sql/pglite-pgvector': 'projector-pgvector',
  hono: 'server',
  '@hono/node-server': 'server',
  '@modelcontextprotocol/sdk': 'mcp',
};

const root = join(import.meta.dirname, '..');
const packagesDir = join(root, 'packages');

function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry) && !/\.spec\.ts$/.test(entry) && !/\.d\.ts$/.test(entry)) out.push(path);
  }
  return out;
}

function importsOf(file: string): string[] {
  const text = readFileSync(file, 'utf8');
  const specifiers = new Set<string>();
  for (const match of text.matchAll(/(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)/g)) {
    specifiers.add((match[1] ?? match[2])!);
  }
  return [...specifiers];
}

const packages = readdirSync(packagesDir).filter((name) => statSync(join(packagesDir, name)).isDirectory()).sort();

describe('architecture', () => {
  it('every package is placed in the dependency map', () => {
    expect(packages.filter((name) => !(name in ALLOWED))).toEqual([]);
  });

  for (const name of packages) {
    it(`${name} imports only what its layer allows`, () => {
      const wrong: string[] = [];
      for (const file of sourceFiles(join(packagesDir, name, 'src'))) {
        for (const specifier of importsOf(file)) {
          if (specifier.startsWith('.') || specifier.startsWith('node:')) continue;
          if (specifier.startsWith('@mem/')) {
            const target = specifier.slice('@mem/'.length).split('/')[0]!;
            if (!(ALLOWED[name] ?? []).includes(target)) wrong.push(`${relative(root, file)} → ${specifier}`);
            continue;
          }
          const library = specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : specifier.split('/')[0]!;
          const owner = EXCLUSIVE[library];
          if (owner !== undefined && owner !== name) wrong.push(`${relative(root, file)} → ${library} (only ${owner} may use it)`);
        }
      }
      expect(wrong).toEqual([]);
    });

    it(`${name} declares the workspace packages it imports, and no others`, () => {
      const manifest = JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
      const declared = Object.keys(manifest.dependencies ?? {}).filter((d) => d.startsWith('@mem/')).map((d) => d.slice(5)).sort();
      const used = new Set<string>();
      for (const file of sourceFiles(join(packagesDir, name, 'src'))) {
        for (const specifier of importsOf(file)) if (specifier.startsWith('@mem/')) used.add(specifier.slice(5).split('/')[0]!);
      }
      expect(declared).toEqual([...used].sort());
    });
  }

  it('core depends on zod and nothing else', () => {
    const manifest = JSON.parse(readFileSync(join(packagesDir, 'core', 'package.json'), 'utf8')) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['zod']);
  });
});
