import type { CitedNode, ItemStore, NodeRow } from '@mem/projector-sqlite';
import { copiedLine } from './copied-line.js';
import type { RecallLevel } from './ports.js';
import type { Citation } from './result.js';

/**
 * How much of each citation's text a result carries: all of it, an excerpt of
 * CITATION_EXCERPT_CHARS characters, or no citations at all.
 */
export type CitationMode = 'full' | 'excerpt' | 'none';

/** Characters (code points) of a citation's text kept by the `excerpt` mode. */
export const CITATION_EXCERPT_CHARS = 400;

/**
 * Walks provenance edges down from a memory or a line: a line's own parents (its line edges;
 * an L2 line's L1 parent is the L1 line it copies, followed by that line's own chunks), a
 * memory's (an L2's L1 parents, each followed by the L0 evidence it rests on) (depth first, in
 * the store's edge order). Evidence and references cite
 * nothing. A parent a tombstone deleted is not cited (its text was removed on purpose); a
 * dangling edge is skipped (`mem verify` reports it); an edge to R is skipped (R is never a
 * parent, seed 001). An excerpt is cut in the store: an L0 is a whole chunk, and a memory rests
 * on many, so copying each out whole only to cut it cost more than the rest of the query.
 */
export function citationsOf(
  items: ItemStore,
  node: NodeRow,
  mode: CitationMode = 'full',
): Citation[] {
  if (mode === 'none') return [];
  const maxChars = mode === 'excerpt' ? CITATION_EXCERPT_CHARS : null;
  const out: Citation[] = [];
  const seen = new Set<string>();
  const walk = (level: NodeRow['level'], sha256: string): void => {
    for (const edge of items.edges(node.project, sha256, 'parents')) {
      if (edge.child_level !== level || edge.kind !== 'provenance' || edge.parent_level === 'R')
        continue;
      cite(edge.parent_level, edge.parent_sha);
    }
  };
  const cite = (level: NodeRow['level'], sha256: string): void => {
    const id = `${level}:${sha256}`;
    if (seen.has(id)) return;
    seen.add(id);
    const parent = items.citedNode(node.project, sha256, level, maxChars);
    if (!parent || parent.deleted_at !== null) return;
    out.push(citationOf(parent, maxChars));
    if (parent.level === 'L1' || parent.level === 'L2') walk(parent.level, parent.sha256);
  };

  // An L1 line as an L2 line's citation: its own text, then its own chunks.
  const citeLine = (line: NodeRow): void => {
    const id = `L1:line:${line.sha256}`;
    if (seen.has(id)) return;
    seen.add(id);
    if (line.deleted_at !== null) return;
    const chars = [...line.text];
    const cut = maxChars !== null && chars.length > maxChars;
    out.push({
      level: 'L1',
      sha256: line.sha256,
      source: line.source,
      text: cut ? `${chars.slice(0, maxChars).join('')}…` : line.text,
      t: line.t,
      ...(cut ? { text_chars: chars.length } : {}),
    });
    for (const edge of items.lineEdges(line.project, 'L1', line.sha256))
      if (edge.kind === 'parent') cite('L0', edge.target_sha);
  };

  if (node.kind === 'line' && node.level === 'L1') {
    // A line cites what it rests on itself (its own chunks), not every parent of its memory.
    for (const edge of items.lineEdges(node.project, 'L1', node.sha256))
      if (edge.kind === 'parent') cite('L0', edge.target_sha);
  } else if (node.kind === 'line' && node.level === 'L2') {
    // Trigger: an L2 line rests on a whole L1 memory. Why: that memory's chunks are every
    // line's, so citing them all cited evidence of other lines. Outcome: the L1 line it copies
    // and that line's chunks; a line that copies none rests on the memory as a whole.
    for (const edge of items.lineEdges(node.project, 'L2', node.sha256)) {
      if (edge.kind !== 'parent') continue;
      const line = copiedLine(items, node, edge.target_sha);
      if (line !== undefined) citeLine(line);
      else cite('L1', edge.target_sha);
    }
  } else if (node.level === 'L1' || node.level === 'L2') walk(node.level, node.sha256);
  return out;
}

/**
 * citationsOf for each row of a page, in page order, with the same answers. An L1 line (the
 * commonest row) cites only its own chunks, so the chunks of every L1 line of the page are read
 * in one statement (ItemStore.lineChunks); the rows whose walk goes deeper are walked one by one.
 */
export function citationsOfPage(
  items: ItemStore,
  nodes: readonly NodeRow[],
  mode: CitationMode = 'full',
): Citation[][] {
  if (mode === 'none') return nodes.map(() => []);
  const maxChars = mode === 'excerpt' ? CITATION_EXCERPT_CHARS : null;
  const lines = nodes.filter((node) => node.kind === 'line' && node.level === 'L1');
  const chunks = new Map(
    items.lineChunks(lines, maxChars).map((cited, i) => [lines[i]!, cited] as const),
  );
  return nodes.map((node) => {
    const cited = chunks.get(node);
    if (cited === undefined) return citationsOf(items, node, mode);
    return cited.filter((c) => c.deleted_at === null).map((c) => citationOf(c, maxChars));
  });
}

/** A cited node as a citation shows it: an excerpt cut in the store ends in an ellipsis and says how long the whole is. */
function citationOf(parent: CitedNode, maxChars: number | null): Citation {
  const citation: Citation = {
    // Only provenance is walked, and no item is any node's provenance: never level I.
    level: parent.level as RecallLevel,
    sha256: parent.sha256,
    source: parent.source,
    text: parent.text,
    t: parent.t,
  };
  if (maxChars !== null && parent.text_chars > maxChars) {
    citation.text = `${parent.text}…`;
    citation.text_chars = parent.text_chars;
  }
  return citation;
}
