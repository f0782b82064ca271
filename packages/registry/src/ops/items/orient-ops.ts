import { defineOperation } from '../../operation.js';
import { orient, orientInput, orientOut, type Orientation } from './orient.js';
import { openItem, openItemInput, openItemOut } from './open-item.js';
import type { Slim } from './slim.js';
import { warningLine } from './freshness.js';

const more = (omitted: number) => (omitted > 0 ? `  … ${omitted} more` : null);

/**
 * One slim item. Trigger: a thread of T0 carries `open_marker`. Why: README promised
 * "open · N days unresolved" in orient, and only the JSON held it (the stop-33 walk).
 * Outcome: it follows the summary.
 */
function slimLine(s: Slim): string {
  const work = s.status !== undefined ? ` [${s.status}, ${s.open_count} open]` : '';
  const marker = s.open_marker !== undefined ? ` · ${s.open_marker}` : '';
  return `  ${s.id} ${s.type}${work} ${s.summary}${marker}`;
}

/**
 * A knowledge section's heading. Trigger: no items. Why: the bytes are the JSON list's, so an
 * empty one read "2/4096 bytes" (the stop-32 walk). Outcome: "empty" and the cap.
 */
function knowledgeHeading(name: string, s: Orientation['rules']): string {
  return s.items.length === 0
    ? `${name}: empty (cap ${s.cap} bytes)`
    : `${name} (${s.items.length}, ${s.bytes}/${s.cap} bytes):`;
}

/**
 * A reminder's overdue mark. Trigger: its time is before orient's clock. Why: a reminder months
 * past showed under "due within 14 days" unmarked (the stop-33 walk). Outcome: `overdue N days`.
 */
function overdue(at: string | null | undefined, now: string): string {
  if (!at) return '';
  const late = Date.parse(now) - Date.parse(at);
  if (!(late > 0)) return '';
  const days = Math.floor(late / 86_400_000);
  return days >= 1 ? ` (overdue ${days} day${days === 1 ? '' : 's'})` : ' (overdue)';
}

/** The text `mem orient` prints. */
export function orientText(o: Orientation): string {
  const lines: (string | null)[] = [
    knowledgeHeading('rules', o.rules),
    ...o.rules.items.map((r) => `  ${r.id} ${r.summary}`),
    knowledgeHeading('facts', o.facts),
    ...o.facts.items.map((f) => `  ${f.id} ${f.summary}`),
    `threads (${o.threads.total}):`,
    ...o.threads.items.map(slimLine),
    more(o.threads.omitted),
    `reminders due within ${o.window_days} days of ${o.now} (${o.reminders.total}):`,
    ...o.reminders.items.map(
      (r) => `  ${r.id} ${r.remind_at}${overdue(r.remind_at, o.now)} ${r.summary}`,
    ),
    more(o.reminders.omitted),
    `projects: ${o.projects.items.map((p) => `${p.project} (${p.items})`).join(', ')}`,
    `tags: ${o.tags.items.map((t) => `${t.tag} (${t.count})`).join(', ') || '(none)'}${o.tags.omitted > 0 ? ` … ${o.tags.omitted} more` : ''}`,
    ...o.review.items.map(
      (r) =>
        `review: ${r.project} ${r.open} open (${r.kinds.map((k) => `${k.open} ${k.kind}`).join(', ')}): ${r.next}`,
    ),
    o.review.omitted > 0 ? `review: … ${o.review.omitted} more projects with findings open` : null,
    ...o.freshness_warnings.map(warningLine),
    more(o.freshness_warnings_left_out ?? 0),
  ];
  return lines.filter((l): l is string => l !== null).join('\n');
}

/** `orient` (T0): the one bounded read at session start. */
export const orientOp = defineOperation({
  name: 'orient',
  summary:
    'orientation at session start: unanchored rules and facts, threads, reminders due in 14 days, projects and tags, under a byte budget',
  input: orientInput,
  output: orientOut,
  kind: 'read',
  idempotent: true,
  auth: { access: 'token' },
  http: { method: 'GET', path: '/memory/orientation' },
  mcp: {
    tool: 'orient',
    description:
      'Call at session start and after compaction: the binding rules, the facts, the active threads and due reminders, bounded in bytes.',
  },
  cli: {
    command: ['orient'],
    options: [
      { field: 'project', flag: '--project <name>', description: 'only this project' },
      {
        field: 'now',
        flag: '--now <iso>',
        description:
          'the clock the reminder window is relative to (default: now; a date alone: its 00:00 UTC)',
      },
    ],
    text: orientText,
  },
  run: (ctx, caller, input) => orient(ctx, caller, input),
});

/** `open` (T1): one thread or task with its open children and the knowledge anchored to it. */
export const openItemOp = defineOperation({
  name: 'open',
  summary:
    'open an item (T1): it in full, its open children with an exact overflow count, anchored rules then facts, links',
  input: openItemInput,
  output: openItemOut,
  kind: 'read',
  idempotent: true,
  auth: { access: 'token' },
  http: { method: 'GET', path: '/memory/items/{id}/context' },
  mcp: { tool: 'items', select: { field: 'action', value: 'open' } },
  cli: {
    command: ['items', 'open'],
    args: ['id'],
    options: [
      { field: 'project', flag: '--project <name>', description: 'only this project' },
      {
        field: 'status',
        flag: '--status <status>',
        description: 'children with this status instead of the open ones',
      },
      {
        field: 'limit',
        flag: '--limit <n>',
        parse: 'integer',
        description: 'at most this many children (default 50)',
      },
    ],
    text: (out) =>
      [
        `${out.item.id} ${out.item.type}${out.item.status !== null ? ` [${out.item.status}]` : ''} ${out.item.summary}`,
        ...(out.freshness.open_marker !== null ? [`  ${out.freshness.open_marker}`] : []),
        ...(out.freshness.state !== 'fresh' && out.freshness.state !== 'open'
          ? [`  ${out.freshness.label}: ${out.freshness.reason}`]
          : []),
        ...(out.rules.length > 0 ? ['rules (binding):', ...out.rules.map(slimLine)] : []),
        ...(out.facts.length > 0 ? ['facts:', ...out.facts.map(slimLine)] : []),
        `children (${out.children.total}):`,
        ...out.children.items.map(slimLine),
        ...(out.children.omitted > 0 ? [`  … ${out.children.omitted} more`] : []),
        ...(out.links.length > 0
          ? ['links:', ...out.links.map((l) => `  ${l.id} ${l.summary}`)]
          : []),
        ...out.freshness_warnings.map(warningLine),
        ...(out.freshness_warnings_left_out !== undefined
          ? [`  … ${out.freshness_warnings_left_out} more`]
          : []),
      ].join('\n'),
  },
  run: (ctx, caller, input) => openItem(ctx, caller, input),
});
