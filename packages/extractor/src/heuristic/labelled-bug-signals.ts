import type { ChunkRecord } from '../controller.js';
import type { Signal } from './summary-signals.js';

/*
 * An agent's report of a bug it dealt with often comes as labelled lines: "**Issue #288**: users
 * could not start without keys", "**Root cause**: …", "**Fix**: modified sdk.ts to: 1. … 2. …".
 * Read one by one they are prose fragments ("Fix: Modified sdk.ts to:" says nothing alone); read
 * together they are one bug with its symptom, cause and fix — one line.
 */

type Part = 'symptom' | 'cause' | 'fix';

const LABEL =
  /^\s*\*\*(issue(?:\s*#\d+)?|problem|bug|symptom|root[- ]cause|cause|fix(?:ed)?|solution)\*\*\s*:?\s*(.*)$/iu;
const LIST_ITEM = /^\s*(?:[-*+]|\d+[.)])\s+(.*)$/u;
const LINE_CHARS = 400;

function partOf(label: string): Part {
  if (/^(?:root[- ])?cause$/iu.test(label)) return 'cause';
  if (/^(?:fix(?:ed)?|solution)$/iu.test(label)) return 'fix';
  return 'symptom';
}

function clip(text: string): string {
  return text.length > LINE_CHARS ? `${text.slice(0, LINE_CHARS).trimEnd()}…` : text;
}

/**
 * The bug lines of an agent's labelled report, and its text without the labelled lines (so they
 * are not read again as prose). A bug needs its symptom or cause and one more part; a lone label
 * stays prose.
 */
export function labelledBugs(record: ChunkRecord): { signals: Signal[]; rest: string } {
  if (record.role !== 'assistant') return { signals: [], rest: record.text };
  const lines = record.text.split('\n');
  const parts = new Map<Part, { label: string; text: string[] }>();
  const used = new Set<number>();
  let current: { label: string; text: string[] } | undefined;
  lines.forEach((line, i) => {
    const label = LABEL.exec(line);
    if (label !== null) {
      current = { label: label[1]!.replace(/\s+/gu, ' '), text: [label[2]!.trim()] };
      const part = partOf(label[1]!);
      if (!parts.has(part)) parts.set(part, current);
      used.add(i);
      return;
    }
    // A labelled part goes on over the list that follows it ("Modified sdk.ts to:" then items).
    const item = LIST_ITEM.exec(line);
    if (current !== undefined && item !== null) {
      current.text.push(item[1]!.trim());
      used.add(i);
    } else if (line.trim() !== '') current = undefined;
  });
  const symptom = parts.get('symptom');
  const cause = parts.get('cause');
  const fix = parts.get('fix');
  if ((symptom === undefined && cause === undefined) || parts.size < 2)
    return { signals: [], rest: record.text };
  const say = (part: { label: string; text: string[] } | undefined, name: string) =>
    part === undefined
      ? []
      : [
          `${name}: ${part.text
            .filter((t) => t !== '')
            .join('; ')
            .replace(/:;/gu, ':')}`,
        ];
  const text = [
    ...say(symptom, symptom?.label ?? 'Issue'),
    ...say(cause, 'Root cause'),
    ...say(fix, 'Fix'),
  ]
    .join(' ')
    .replace(/\s+/gu, ' ');
  return {
    signals: [{ text: clip(text), family: 'cause' }],
    rest: lines.filter((_, i) => !used.has(i)).join('\n'),
  };
}
