import { existsSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  cycleOf,
  declaredEdges,
  edgeDrift,
  exportedNames,
  importedEdges,
  importsOf,
  parseDrawnGraph,
  readmeExports,
  renderGraph,
  sourceFiles,
  specifiersIn,
  workspacePackages,
  workspaceTarget,
} from './support/package-graph.js';
import { envReadsIn, envReadsOf } from './support/env-readers.js';

/*
 * The tree shows the authority model (STYLE "Shape"): arrows point one way. The allow-list of
 * package → package edges is the graph drawn in packages/README.md; it must equal what every
 * package.json declares and what the sources import — no edge more, no edge less — so a new
 * arrow is drawn on purpose, and the drawing cannot rot. Third-party libraries the user chose
 * live in exactly one package.
 */
const EXCLUSIVE: Record<string, string> = {
  'better-sqlite3': 'projector-sqlite',
  'gray-matter': 'projector-vault',
  'js-yaml': 'projector-vault',
  commander: 'cli',
  chokidar: 'cli',
  yaml: 'ingest',
  pg: 'projector-pgvector',
  '@electric-sql/pglite': 'projector-pgvector',
  '@electric-sql/pglite-pgvector': 'projector-pgvector',
  hono: 'server',
  '@hono/node-server': 'server',
  '@modelcontextprotocol/sdk': 'mcp',
  // The kernel lock primitive: every other package takes its locks through @mem/engine's locks module.
  'fs-native-extensions': 'log',
};

/**
 * The entry points: the only files that read process.env, handing it to loadConfig once. Every
 * library gets the typed MemConfig passed down, so what it reads is documented and validated.
 */
const ENV_READERS = ['packages/cli/src/io.ts'];

const root = join(import.meta.dirname, '..');
const packagesDir = join(root, 'packages');
const packages = workspacePackages(packagesDir);
/** The non-test sources (src/ and test helpers) of every package whose text matches `pattern`, relative to the root. */
function filesMatching(pattern: RegExp): string[] {
  const dirs = packages
    .flatMap((name) => ['src', 'test'].map((sub) => join(packagesDir, name, sub)))
    .filter((dir) => existsSync(dir));
  return dirs
    .flatMap((dir) => sourceFiles(dir))
    .filter((file) => pattern.test(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file))
    .sort();
}
const drawing = parseDrawnGraph(readFileSync(join(packagesDir, 'README.md'), 'utf8'));

describe('architecture', () => {
  it('packages/README.md draws every package and no other', () => {
    expect(drawing.nodes).toEqual(packages);
  });

  it('packages/README.md draws exactly the edges package.json declares (the block is generated from them)', () => {
    const block = /^```mermaid\n[\s\S]*?^```$/m.exec(
      readFileSync(join(packagesDir, 'README.md'), 'utf8'),
    )![0];
    expect(block).toEqual(renderGraph(declaredEdges(packagesDir)));
  });

  it('drawn, declared and imported edges agree', () => {
    expect(
      edgeDrift({
        drawn: drawing.edges,
        declared: declaredEdges(packagesDir),
        imported: importedEdges(packagesDir),
      }),
    ).toEqual([]);
  });

  it('the arrows point one way', () => {
    expect(cycleOf(drawing.edges)).toBeNull();
  });

  for (const name of packages) {
    it(`${name} uses only the libraries it owns among the exclusive ones`, () => {
      const wrong: string[] = [];
      for (const file of sourceFiles(join(packagesDir, name, 'src'))) {
        for (const specifier of importsOf(file)) {
          if (
            specifier.startsWith('.') ||
            specifier.startsWith('node:') ||
            workspaceTarget(specifier) !== null
          )
            continue;
          const library = specifier.startsWith('@')
            ? specifier.split('/').slice(0, 2).join('/')
            : specifier.split('/')[0]!;
          const owner = EXCLUSIVE[library];
          if (owner !== undefined && owner !== name)
            wrong.push(`${relative(root, file)} → ${library} (only ${owner} may use it)`);
        }
      }
      expect(wrong).toEqual([]);
    });
  }

  for (const name of packages) {
    it(`${name} has a README saying what it owns and does not do, naming only real exports`, () => {
      const readme = readFileSync(join(packagesDir, name, 'README.md'), 'utf8');
      expect(readme.split('\n')[0]).toBe(`# @mem/${name}`);
      expect(readme).toMatch(/owns/i);
      expect(readme).toMatch(/does not/i);
      const named = readmeExports(readme);
      expect(named, 'an **Exports:** line').not.toBeNull();
      const exported = new Set(
        exportedNames(readFileSync(join(packagesDir, name, 'src', 'index.ts'), 'utf8')),
      );
      expect(named!.filter((export_) => !exported.has(export_))).toEqual([]);
    });
  }

  it("spells the item store's file name once: projector-sqlite exports the path, no package joins it by hand", () => {
    expect(filesMatching(/['"][^'"\n]*items\.sqlite[^'"\n]*['"]/)).toEqual([
      'packages/projector-sqlite/src/store-files.ts',
    ]);
  });

  it('names every lock file of a data root in one module, and takes every lock through it', () => {
    expect(filesMatching(/\.lock['"`]/)).toEqual(['packages/engine/src/locks.ts']);
    expect(
      filesMatching(/\b(withFileLock|holdFileLock)\b/).filter(
        (f) => !f.startsWith('packages/log/'),
      ),
    ).toEqual(['packages/engine/src/locks.ts']);
  });

  it('no library reads process.env: only the entry points do, and pass loadConfig on', () => {
    const readers: string[] = [];
    for (const name of packages) {
      for (const file of sourceFiles(join(packagesDir, name, 'src'))) {
        const where = relative(root, file);
        if (!ENV_READERS.includes(where))
          readers.push(...envReadsOf(file).map((line) => `${where}:${line}`));
      }
    }
    expect(readers).toEqual([]);
  });

  it('core depends on zod and nothing else', () => {
    const manifest = JSON.parse(
      readFileSync(join(packagesDir, 'core', 'package.json'), 'utf8'),
    ) as { dependencies?: Record<string, string> };
    expect(Object.keys(manifest.dependencies ?? {})).toEqual(['zod']);
  });
});

describe('the edge check', () => {
  const agreed = {
    drawn: ['log --> core' as const],
    declared: ['log --> core' as const],
    imported: ['log --> core' as const],
  };

  it('accepts a graph on which all three agree', () => {
    expect(edgeDrift(agreed)).toEqual([]);
  });

  it('refuses an import of an undeclared workspace package', () => {
    expect(edgeDrift({ ...agreed, imported: ['log --> core', 'log --> engine'] })).toEqual([
      'log --> engine: imported but not declared in package.json',
    ]);
  });

  it('refuses a declared dependency never imported', () => {
    expect(
      edgeDrift({
        ...agreed,
        drawn: ['log --> core', 'log --> llm'],
        declared: ['log --> core', 'log --> llm'],
      }),
    ).toEqual(['log --> llm: declared in package.json but never imported']);
  });

  it('refuses an edge drawn but not declared, and one declared but not drawn', () => {
    expect(edgeDrift({ ...agreed, drawn: ['log --> core', 'server --> log'] })).toEqual([
      'server --> log: drawn in packages/README.md but not declared in package.json',
    ]);
    expect(edgeDrift({ ...agreed, drawn: [] })).toEqual([
      'log --> core: declared in package.json but not drawn in packages/README.md',
    ]);
  });

  it('finds reads of process.env, not mentions of it', () => {
    const text =
      "// process.env.X in a comment\nconst a = process.env.X;\nconst b = process['env'];\nconst { env } = process;\nconst c = globalThis.process.env;\nconst d = '/process.env/';\n";
    expect(envReadsIn(text)).toEqual([2, 3, 4, 5]);
  });

  it('finds a cycle', () => {
    expect(cycleOf(['log --> core', 'core --> engine', 'engine --> log'])).toEqual([
      'core',
      'engine',
      'log',
      'core',
    ]);
    expect(cycleOf(['engine --> log', 'log --> core'])).toBeNull();
  });

  it('reads static, re-exported, side-effect and dynamic imports', () => {
    const text =
      "import { a } from '@mem/core';\nexport { b } from '@mem/log';\nimport '@mem/llm';\nconst c = await import('@mem/embed');\n";
    expect(specifiersIn(text)).toEqual(['@mem/core', '@mem/embed', '@mem/llm', '@mem/log']);
  });

  it('reads the export lists of an index.ts and the Exports line of a README', () => {
    expect(
      exportedNames(
        "export { a, type B } from './a.js';\nexport type {\n  C,\n  D as E,\n} from './c.js';\n",
      ),
    ).toEqual(['B', 'C', 'E', 'a']);
    expect(readmeExports('# x\n\n**Exports:** `a`, `B`.\n')).toEqual(['a', 'B']);
    expect(readmeExports('# x\n')).toBeNull();
  });

  it('parses the mermaid block and refuses a line it cannot read', () => {
    expect(parseDrawnGraph('x\n```mermaid\ngraph BT\n  log --> core\n  cli\n```\n')).toEqual({
      nodes: ['cli', 'core', 'log'],
      edges: ['log --> core'],
    });
    expect(() => parseDrawnGraph('```mermaid\ngraph BT\n  log -.-> core\n```\n')).toThrow(
      /not an edge/,
    );
    expect(() => parseDrawnGraph('no drawing')).toThrow(/exactly one/);
  });
});
