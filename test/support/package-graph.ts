import { readFileSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

/*
 * The workspace dependency graph, read three ways so they can be compared: as drawn in
 * packages/README.md (the allow-list a reviewer reads), as declared in each package.json, and
 * as used by the imports of each package's src/. An edge "a --> b" means a imports b.
 */

/** One package → package edge, written the way the mermaid block writes it. */
export type Edge = `${string} --> ${string}`;

const EDGE_LINE = /^\s*([a-z][a-z0-9-]*)\s*-->\s*([a-z][a-z0-9-]*)\s*$/;
const NODE_LINE = /^\s*([a-z][a-z0-9-]*)\s*$/;

/** Edges and lone nodes of the one ```mermaid block of a markdown text; any other line in it is refused. */
export function parseDrawnGraph(markdown: string): { nodes: string[]; edges: Edge[] } {
  const blocks = [...markdown.matchAll(/^```mermaid\n([\s\S]*?)^```$/gm)];
  if (blocks.length !== 1)
    throw new Error(`expected exactly one \`\`\`mermaid block, found ${blocks.length}`);
  const [header, ...lines] = blocks[0]![1]!.split('\n').filter((line) => line.trim() !== '');
  if (!/^(graph|flowchart) (TD|TB|BT|LR|RL)$/.test(header?.trim() ?? ''))
    throw new Error(
      `the mermaid block must start with "graph <direction>", not ${JSON.stringify(header)}`,
    );
  const nodes = new Set<string>();
  const edges: Edge[] = [];
  for (const line of lines) {
    const edge = EDGE_LINE.exec(line);
    const node = NODE_LINE.exec(line);
    if (edge) {
      edges.push(`${edge[1]!} --> ${edge[2]!}`);
      nodes.add(edge[1]!).add(edge[2]!);
    } else if (node) nodes.add(node[1]!);
    // Trigger: a styled node, a label or a typo. Why: a line the parser skipped would be an
    // edge the drawing shows but the test never checks. Outcome: only bare edges and nodes.
    else throw new Error(`not an edge "a --> b" or a node: ${JSON.stringify(line)}`);
  }
  return { nodes: [...nodes].sort(), edges: [...edges].sort() };
}

/** The mermaid block for a set of edges: what packages/README.md must hold, byte for byte. */
export function renderGraph(edges: readonly Edge[]): string {
  return [
    '```mermaid',
    'graph BT',
    ...[...new Set(edges)].sort().map((edge) => `  ${edge}`),
    '```',
  ].join('\n');
}

/** Every disagreement between drawn, declared and imported edges, one line each; empty when they agree. */
export function edgeDrift(graph: {
  drawn: readonly Edge[];
  declared: readonly Edge[];
  imported: readonly Edge[];
}): string[] {
  const drawn = new Set(graph.drawn);
  const declared = new Set(graph.declared);
  const imported = new Set(graph.imported);
  const problems: string[] = [];
  for (const edge of declared)
    if (!drawn.has(edge))
      problems.push(`${edge}: declared in package.json but not drawn in packages/README.md`);
  for (const edge of drawn)
    if (!declared.has(edge))
      problems.push(`${edge}: drawn in packages/README.md but not declared in package.json`);
  for (const edge of imported)
    if (!declared.has(edge)) problems.push(`${edge}: imported but not declared in package.json`);
  for (const edge of declared)
    if (!imported.has(edge)) problems.push(`${edge}: declared in package.json but never imported`);
  return problems.sort();
}

/** A dependency cycle as a path of packages (first = last), or null when the arrows point one way. */
export function cycleOf(edges: readonly Edge[]): string[] | null {
  const next = new Map<string, string[]>();
  for (const edge of edges) {
    const [from, to] = edge.split(' --> ') as [string, string];
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const done = new Set<string>();
  const visit = (name: string, path: string[]): string[] | null => {
    if (path.includes(name)) return [...path.slice(path.indexOf(name)), name];
    if (done.has(name)) return null;
    for (const to of next.get(name) ?? []) {
      const cycle = visit(to, [...path, name]);
      if (cycle) return cycle;
    }
    done.add(name);
    return null;
  };
  for (const name of [...next.keys()].sort()) {
    const cycle = visit(name, []);
    if (cycle) return cycle;
  }
  return null;
}

/** The package directories under packagesDir, sorted. */
export function workspacePackages(packagesDir: string): string[] {
  return readdirSync(packagesDir)
    .filter((name) => statSync(join(packagesDir, name)).isDirectory())
    .sort();
}

/** The non-test TypeScript sources of one package's src/. */
export function sourceFiles(dir: string): string[] {
  const out: string[] = [];
  for (const entry of readdirSync(dir)) {
    const path = join(dir, entry);
    if (statSync(path).isDirectory()) out.push(...sourceFiles(path));
    else if (/\.ts$/.test(entry) && !/\.spec\.ts$/.test(entry) && !/\.d\.ts$/.test(entry))
      out.push(path);
  }
  return out.sort();
}

/** The module specifiers a source file imports or re-exports: static, side-effect only, or dynamic. */
export function importsOf(file: string): string[] {
  return specifiersIn(readFileSync(file, 'utf8'));
}

/** The module specifiers of a source text (the pure half of importsOf). */
export function specifiersIn(text: string): string[] {
  const specifiers = new Set<string>();
  const pattern =
    /(?:import|export)\s[^'"]*?from\s+['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
  for (const match of text.matchAll(pattern)) specifiers.add((match[1] ?? match[2] ?? match[3])!);
  return [...specifiers].sort();
}

/** The workspace package a specifier names ("@mem/log/x" → "log"), or null for anything else. */
export function workspaceTarget(specifier: string): string | null {
  return specifier.startsWith('@mem/') ? specifier.slice('@mem/'.length).split('/')[0]! : null;
}

/** The edges each package.json declares in `dependencies`. */
export function declaredEdges(packagesDir: string): Edge[] {
  const edges: Edge[] = [];
  for (const name of workspacePackages(packagesDir)) {
    const manifest = JSON.parse(readFileSync(join(packagesDir, name, 'package.json'), 'utf8')) as {
      dependencies?: Record<string, string>;
    };
    for (const dependency of Object.keys(manifest.dependencies ?? {})) {
      const target = workspaceTarget(dependency);
      if (target !== null) edges.push(`${name} --> ${target}`);
    }
  }
  return edges.sort();
}

/** The edges the sources of each package's src/ actually import. */
export function importedEdges(packagesDir: string): Edge[] {
  const edges = new Set<Edge>();
  for (const name of workspacePackages(packagesDir)) {
    for (const file of sourceFiles(join(packagesDir, name, 'src'))) {
      for (const specifier of importsOf(file)) {
        const target = workspaceTarget(specifier);
        if (target !== null && target !== name) edges.add(`${name} --> ${target}`);
      }
    }
  }
  return [...edges].sort();
}

/** The names an index.ts exports through `export { … }` / `export type { … }` lists. */
export function exportedNames(indexText: string): string[] {
  const names = new Set<string>();
  for (const list of indexText.matchAll(/export\s+(?:type\s+)?\{([^}]*)\}/g)) {
    for (const part of list[1]!.split(',')) {
      const name = part
        .trim()
        .replace(/^type\s+/, '')
        .split(/\s+as\s+/)
        .pop()!
        .trim();
      if (name !== '') names.add(name);
    }
  }
  return [...names].sort();
}

/** The backticked names on a README's `**Exports:**` line, or null when it has none. */
export function readmeExports(readme: string): string[] | null {
  const line = /^\*\*Exports:\*\*(.*)$/m.exec(readme);
  return line ? [...line[1]!.matchAll(/`([^`]+)`/g)].map((match) => match[1]!) : null;
}
