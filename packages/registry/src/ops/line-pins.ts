import { z } from 'zod';
import { requireReach, writerOf } from '../caller.js';
import { defineOperation } from '../operation.js';
import { liveLineOf } from './items/promote-line.js';
import { resolveStoredRef } from './memory-ref.js';
import { projectInput } from './schemas.js';

/*
 * Issue 13 §5, seed 004: pins on memory lines. A pinned line leads its relevance band in
 * `mem query` exactly as a pinned item does (band-order.ts), never above a stronger match, and
 * its ranking block says `pinned`. The pin is an event (`line_pinned` / `line_unpinned`: the
 * line's sha and level, the reason; who did it is the envelope's writer) that the SQLite store
 * projects into line_pin.
 */

const TOOL = 'correct_memory';

const pinInput = z.strictObject({
  project: projectInput,
  ref: z
    .string()
    .trim()
    .min(1, 'expected a memory line: its sha, a unique prefix as mem query prints it, or its text')
    .max(10_000),
  reason: z.string().trim().min(1, 'expected a reason: every pin says why').max(2_000),
});

/** What a pin or unpin did: the line it resolved to and the event's seq (null: it already stood so, nothing written). */
const pinOut = z.object({
  project: z.string(),
  target: z.string(),
  level: z.enum(['L1', 'L2']),
  pinned: z.boolean(),
  seq: z.number().nullable(),
});
type PinOut = z.infer<typeof pinOut>;

const pinText = (out: PinOut) =>
  `${out.pinned ? 'pinned' : 'unpinned'} line ${out.target} (${out.level}) in ${out.project}${out.seq === null ? ' (already so: nothing written)' : ` (seq ${out.seq})`}`;

const cliOptions = [
  { field: 'project', flag: '--project <name>', description: 'the project the line belongs to' },
  { field: 'reason', flag: '--reason <text>', description: 'why (recorded; required)' },
];

/**
 * `mem pin REF`: the line must be in force (unknown NOT_FOUND; forgotten, superseded or held by
 * no live memory CONFLICT; a memory of several lines INVALID_INPUT), nothing written on a
 * refusal. Pinning a pinned line writes nothing.
 */
export const pinLine = defineOperation({
  name: 'pin_line',
  summary: 'pin a memory line: first within its relevance band, never above a stronger match',
  input: pinInput,
  output: pinOut,
  kind: 'write',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/pin' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'pin' } },
  cli: { command: ['pin'], args: ['ref'], options: cliOptions, text: pinText },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    const { items, node, note } = await liveLineOf(ctx, input.project, input.ref, 'ref', 'pin');
    const out = { project: input.project, target: node.sha256, level: note.level, pinned: true };
    if (items.pinnedLines([node]).size > 0) return { ...out, seq: null };
    const written = await ctx.engine.append(
      input.project,
      [{ type: 'line_pinned', target: node.sha256, level: note.level, reason: input.reason }],
      writerOf(caller),
    );
    return { ...out, seq: written.first_seq };
  },
});

/**
 * `mem unpin REF`: the ref is resolved in the item store's line and memory nodes (unknown
 * NOT_FOUND), never by folding the log; the line need not be in force: a line forgotten after it was pinned can still lose its pin (it never
 * returned to recall either way). Unpinning an unpinned line writes nothing.
 */
export const unpinLine = defineOperation({
  name: 'unpin_line',
  summary: "remove a memory line's pin",
  input: pinInput,
  output: pinOut,
  kind: 'write',
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/unpin' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'unpin' } },
  cli: { command: ['unpin'], args: ['ref'], options: cliOptions, text: pinText },
  run: async (ctx, caller, input) => {
    requireReach(caller, input.project);
    const items = (await ctx.stores.fresh()).items;
    const target = resolveStoredRef(items, input.project, input.ref);
    const keys = (['L1', 'L2'] as const).map((level) => ({
      project: input.project,
      level,
      sha256: target.sha256,
    }));
    const [pinned] = [...items.pinnedLines(keys)];
    if (pinned === undefined) {
      const level: PinOut['level'] = items.line(input.project, 'L2', target.sha256) ? 'L2' : 'L1';
      return { project: input.project, target: target.sha256, level, pinned: false, seq: null };
    }
    const written = await ctx.engine.append(
      input.project,
      [
        {
          type: 'line_unpinned',
          target: pinned.sha256,
          level: pinned.level,
          reason: input.reason,
        },
      ],
      writerOf(caller),
    );
    return {
      project: input.project,
      target: pinned.sha256,
      level: pinned.level,
      pinned: false,
      seq: written.first_seq,
    };
  },
});
