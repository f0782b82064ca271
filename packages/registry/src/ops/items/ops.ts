import { z } from 'zod';
import {
  itemIdField,
  itemReasonField,
  itemTypeField,
  isoTimeInputField,
  sourceSha256Field,
  sourceUriField,
  tagField,
  summaryField,
} from '@mem/core';
import { requireCapability, requireReach, type Caller } from '../../caller.js';
import type { RegistryContext } from '../../context.js';
import { defineOperation, type CliOption } from '../../operation.js';
import { inputRefusal } from '../../validate.js';
import { promotedLine, type PromotedLine } from './promote-line.js';
import { projectInput } from '../schemas.js';
import {
  addItems,
  addItemsInput,
  addedItems,
  itemDraft,
  writtenOut,
  type WrittenOut,
} from './add-items.js';
import {
  findItems,
  findItemsInput,
  foundOut,
  itemsOut,
  readItems,
  readItemsInput,
} from './find.js';
import { resolveItems, resolveItemsInput, resolvedOut } from './resolve.js';
import { itemLine, itemRows } from './view.js';
import { warningLine } from './freshness.js';
import {
  deleteItems,
  deleteItemsInput,
  relateItems,
  relateItemsInput,
  updateItem,
  updateItemInput,
} from './mutate.js';
import { MemError, isMemError } from '@mem/core';
import { confirmItem, confirmItemInput } from './confirm-item.js';

/** One MCP tool for curated items; `action` picks the operation. */
const TOOL = 'items';
const projectFlag = {
  field: 'project',
  flag: '--project <name>',
  description: 'the project the items belong to',
};

/**
 * An item's dates and cited source as flags, the same for `mem remember` and `mem items update`
 * (each field means the same in both inputs): one list, so a flag's wording cannot drift apart.
 */
const datesAndSourceFlags: readonly CliOption[] = [
  {
    field: 'due',
    flag: '--due <iso>',
    description: 'when a task is due (a timestamp, or a date alone: its start, 00:00 UTC)',
  },
  { field: 'remind_at', flag: '--remind-at <iso>', description: 'when a reminder fires' },
  {
    field: 'valid_until',
    flag: '--valid-until <iso>',
    description: 'when knowledge stops holding',
  },
  {
    field: 'review_after',
    flag: '--review-after <iso>',
    description: 'when knowledge is due a review: past it, stale until confirmed',
  },
  {
    field: 'source_uri',
    flag: '--source <path|uri>',
    description:
      'what knowledge was read from: a path inside the data root (relative to it), or a URI',
  },
  {
    field: 'source_sha256',
    flag: '--source-sha256 <hex>',
    description:
      "the cited source's sha256 when written (with --source; a local file's is read from it when left out)",
  },
];

const writtenText = (verb: string) => (out: WrittenOut) =>
  out.seq === null
    ? `nothing to write: already ${verb}`
    : `${verb} ${out.ids.length} item${out.ids.length === 1 ? '' : 's'} in ${out.project} (seq ${out.seq}): ${out.ids.join(', ')}`;

/** `add_items`: one atomic batch; one invalid item and nothing is written, the error naming `items[i].field`. */
export const addItemsOp = defineOperation({
  name: 'add_items',
  summary: 'add curated items (rule, fact, task, thread, reminder) as one atomic batch',
  input: addItemsInput,
  output: writtenOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: false,
  startsProject: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/items', status: 201 },
  mcp: {
    tool: TOOL,
    select: { field: 'action', value: 'add' },
    description:
      'Curated items (rules, facts, tasks, threads, reminders): add a batch or remember one, read by id, find by filters and keywords, open a thread or task (T1: its open children and anchored knowledge), log an entry on one, relate two (parent, anchor, blocked_by, link), update fields, confirm knowledge still holds, resolve work as done or dropped, file one under an attention tier (active, reference, archive), pin or unpin it, delete (admin).',
  },
  cli: {
    command: ['items', 'add'],
    options: [
      projectFlag,
      {
        field: 'items',
        flag: '--file <path>',
        parse: 'jsonl-file',
        required: true,
        description: 'JSONL, one item per line ({"type": "task", "summary": ...})',
      },
      { field: 'reason', flag: '--reason <text>', description: 'why they are added (recorded)' },
    ],
    text: writtenText('added'),
  },
  run: (ctx, caller, input, effects) =>
    addItems(ctx, caller, input.project, input.items, input.reason, effects),
  replay: (_input, batch) => addedItems(batch),
});

const rememberInput = z.strictObject({
  project: projectInput,
  /** The item's summary; with from_line, the line's text unless given (a rewording keeps the provenance). */
  text: summaryField.optional(),
  /** Promote this memory line (a sha, a prefix as `mem query` prints it, or its exact text) to a fact or rule. */
  from_line: z.string().trim().min(1).max(2000).optional(),
  type: itemTypeField,
  anchor: z.array(itemIdField).max(32).optional(),
  parent: itemIdField.optional(),
  due: isoTimeInputField.optional(),
  remind_at: isoTimeInputField.optional(),
  valid_until: isoTimeInputField.optional(),
  review_after: isoTimeInputField.optional(),
  source_uri: sourceUriField.optional(),
  source_sha256: sourceSha256Field.optional(),
  tags: z.array(tagField).max(32).optional(),
  reason: itemReasonField.optional(),
});

/** `mem remember TEXT --type T`: one item, the same checks as add_items (its fields named as flags). */
export const rememberOp = defineOperation({
  name: 'remember',
  summary: 'remember one curated item: a rule, fact, task, thread or reminder',
  input: rememberInput,
  output: writtenOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: false,
  startsProject: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/remember', status: 201 },
  mcp: { tool: TOOL, select: { field: 'action', value: 'remember' } },
  cli: {
    command: ['remember'],
    args: ['text'],
    optionalArgs: ['text'],
    options: [
      projectFlag,
      {
        field: 'from_line',
        flag: '--from-line <ref>',
        description:
          'promote a memory line (sha, sha prefix or exact text) to a fact or rule, citing it',
      },
      {
        field: 'type',
        flag: '--type <type>',
        required: true,
        description: 'rule, fact, task, thread or reminder',
      },
      {
        field: 'anchor',
        flag: '--anchor <id>',
        parse: 'list',
        repeatable: true,
        description: 'the work item knowledge is about (repeatable)',
      },
      {
        field: 'parent',
        flag: '--parent <id>',
        description: 'the thread or task a work item is part of',
      },
      ...datesAndSourceFlags,
      { field: 'tags', flag: '--tags <list>', parse: 'list', description: 'comma-separated tags' },
      { field: 'reason', flag: '--reason <text>', description: 'why (recorded)' },
    ],
    text: writtenText('remembered'),
  },
  replay: (_input, batch) => addedItems(batch),
  run: async (ctx, caller, input, effects) => {
    const { project, text, type, anchor, reason, from_line, ...rest } = input;
    const promoted = from_line !== undefined ? await promotion(ctx, caller, input) : null;
    if (text === undefined && promoted === null)
      throw new MemError('INVALID_INPUT', 'remember: text: expected the text, or from_line', {
        field: 'text',
        expected: 'the item text, or from_line naming a memory line',
      });
    const drafted = {
      type,
      summary: text ?? promoted!.text,
      ...rest,
      ...(anchor !== undefined ? { anchors: anchor } : {}),
    };
    const draft = itemDraft.safeParse(drafted);
    if (!draft.success) {
      const issue = draft.error.issues[0]!;
      // Trigger: a promoted line too long to be an item's summary, no TEXT given. Why: "summary:
      // at most 500 characters" names a field the caller never gave. Outcome: it names the line
      // and what to pass.
      if (issue.path[0] === 'summary' && issue.code === 'too_big' && text === undefined)
        throw new MemError(
          'INVALID_INPUT',
          `remember: from_line: the line is ${promoted!.text.length} characters, longer than an item's ${String(issue.maximum)}: pass TEXT, a shorter wording (the item still cites the line)`,
          { field: 'text', expected: `the item text, at most ${String(issue.maximum)} characters` },
        );
      // Said as add_items and update_item say it (one details shape), in remember's own fields.
      throw inputRefusal(itemDraft, draft.error, drafted, 'remember', (field) =>
        field.replace(/^anchors\b/, 'anchor'),
      );
    }
    const item = promoted ? { ...draft.data, from_line: promoted.from_line } : draft.data;
    return addItems(ctx, caller, project, [item], reason, effects).catch((error: unknown) => {
      throw asRememberField(error);
    });
  },
});

/**
 * An add_items refusal of remember's one item, said in remember's own fields: `parent: no
 * live item …`, not `items[0].parent` (a batch the caller never wrote), so the CLI can name
 * `--parent`. Anchors are remember's `anchor`.
 */
function asRememberField(error: unknown): unknown {
  if (!isMemError(error)) return error;
  const field = error.details['field'];
  if (typeof field !== 'string' || !field.startsWith('items[0].')) return error;
  const own = field.slice('items[0].'.length).replace(/^anchors\b/, 'anchor');
  const message = error.message.replace(`${field}: `, `${own}: `);
  return new MemError(error.code, message, { ...error.details, field: own }, { cause: error });
}

/**
 * The line a remember promotes: a fact or rule only, a rule only with may_write_rules (checked
 * before the line is looked at, as add_items checks it), the caller reaching the project.
 */
async function promotion(
  ctx: RegistryContext,
  caller: Caller,
  input: z.infer<typeof rememberInput>,
): Promise<PromotedLine> {
  if (input.type !== 'fact' && input.type !== 'rule')
    throw new MemError(
      'INVALID_INPUT',
      `remember: type: a line is promoted to a fact or rule, not a ${input.type}`,
      { field: 'type', expected: 'fact or rule' },
    );
  requireReach(caller, input.project);
  if (input.type === 'rule') requireCapability(caller, 'may_write_rules');
  return promotedLine(ctx, input.project, input.from_line!);
}

/** `read_items` (T2): whole items by explicit id, never filtered by status. */
export const readItemsOp = defineOperation({
  name: 'read_items',
  summary: 'read curated items by id: whole rows, never filtered by status',
  input: readItemsInput,
  output: itemsOut,
  kind: 'read',
  idempotent: true,
  auth: { access: 'token' },
  http: { method: 'POST', path: '/memory/items/read' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'read' } },
  cli: {
    command: ['items', 'read'],
    args: ['ids'],
    variadic: true,
    options: [{ field: 'project', flag: '--project <name>', description: 'only this project' }],
    text: (out) => out.items.map(itemRows).join('\n\n'),
  },
  run: (ctx, caller, input) => readItems(ctx, caller, input),
});

/** `find_items`: filters and a keyword query; limit and offset with an exact total. */
export const findItemsOp = defineOperation({
  name: 'find_items',
  summary:
    'find curated items by type, status, parent, anchor, tag and keywords, with an exact total',
  input: findItemsInput,
  output: foundOut,
  kind: 'read',
  idempotent: true,
  auth: { access: 'token' },
  http: { method: 'POST', path: '/memory/items/find' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'find' } },
  cli: {
    command: ['items', 'find'],
    options: [
      {
        field: 'project',
        flag: '--project <list>',
        parse: 'list',
        description: 'only these projects (default: every one reachable)',
      },
      { field: 'type', flag: '--type <type>', description: 'rule, fact, task, thread or reminder' },
      {
        field: 'status',
        flag: '--status <status>',
        description: 'proposed, open, in_progress, done or dropped',
      },
      { field: 'parent', flag: '--parent <id>', description: 'children of this item' },
      { field: 'anchor', flag: '--anchor <id>', description: 'knowledge anchored to this item' },
      { field: 'tag', flag: '--tag <tag>', description: 'items with this tag' },
      {
        field: 'query',
        flag: '--query <text>',
        description: 'words to search summary and detail for: any of them, best match first',
      },
      {
        field: 'include_deleted',
        flag: '--include-deleted',
        parse: 'boolean',
        description: 'deleted items too',
      },
      {
        field: 'include_archive',
        flag: '--include-archive',
        parse: 'boolean',
        description: 'archived items too',
      },
      {
        field: 'attention',
        flag: '--attention <tier>',
        description: 'only items of this tier: active, reference or archive',
      },
      {
        field: 'include_stale',
        flag: '--include-stale',
        parse: 'boolean',
        description: 'expired and stale items too (each still warned about)',
      },
      {
        field: 'limit',
        flag: '--limit <n>',
        parse: 'integer',
        description: 'at most this many (default 50)',
      },
      { field: 'offset', flag: '--offset <n>', parse: 'integer', description: 'skip this many' },
    ],
    text: (out) =>
      [
        `${out.total} item${out.total === 1 ? '' : 's'}${out.truncated ? ` (showing ${out.offset + 1}-${out.offset + out.items.length})` : ''}`,
        ...out.items.map(itemLine),
        ...out.freshness_warnings.map(warningLine),
      ].join('\n'),
  },
  run: (ctx, caller, input) => findItems(ctx, caller, input),
});

/** `resolve_items`: done or dropped; a container's open descendants need a disposition (409 listing them). */
export const resolveItemsOp = defineOperation({
  name: 'resolve_items',
  summary:
    'resolve work items as done or dropped; a container needs a disposition for its open descendants',
  input: resolveItemsInput,
  output: resolvedOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/items/resolve' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'resolve' } },
  cli: {
    command: ['items', 'resolve'],
    args: ['ids'],
    variadic: true,
    options: [
      projectFlag,
      {
        field: 'status',
        flag: '--status <status>',
        required: true,
        description: 'done or dropped',
      },
      {
        field: 'descendants',
        flag: '--descendants <status>',
        description: 'done or dropped: what becomes of every open descendant',
      },
      { field: 'reason', flag: '--reason <text>', description: 'why (recorded)' },
    ],
    text: (out) =>
      [
        writtenText('resolved')(out),
        ...(out.warnings ?? []).map((w) => `warning: ${w.message}`),
      ].join('\n'),
  },
  run: (ctx, caller, input) => resolveItems(ctx, caller, input),
});

/** `update_item`: change fields that apply to the item's type; the reason is recorded. */
export const updateItemOp = defineOperation({
  name: 'update_item',
  summary: "update a curated item's summary, detail, tags, dates or (unresolved) status",
  input: updateItemInput,
  output: writtenOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: false,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/items/update' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'update' } },
  cli: {
    command: ['items', 'update'],
    args: ['id'],
    options: [
      projectFlag,
      { field: 'summary', flag: '--summary <text>', description: 'the new summary' },
      { field: 'detail', flag: '--detail <text>', description: 'the new detail (not on a rule)' },
      {
        field: 'tags',
        flag: '--tags <list>',
        parse: 'list',
        description: 'the new tags, comma-separated',
      },
      { field: 'status', flag: '--status <status>', description: 'proposed, open or in_progress' },
      ...datesAndSourceFlags,
      { field: 'reason', flag: '--reason <text>', description: 'why (recorded; required)' },
    ],
    text: writtenText('updated'),
  },
  run: (ctx, caller, input) => updateItem(ctx, caller, input),
});

/** `confirm_item`: a fact or rule still holds; its next review date is recorded, so it is fresh again. */
export const confirmItemOp = defineOperation({
  name: 'confirm_item',
  summary: 'confirm a fact or rule still holds: record its next review date',
  input: confirmItemInput,
  output: writtenOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: false,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/items/confirm' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'confirm' } },
  cli: {
    command: ['items', 'confirm'],
    args: ['id'],
    options: [
      projectFlag,
      {
        field: 'review_after',
        flag: '--review-after <iso>',
        required: true,
        description: 'the next review date (after now)',
      },
      { field: 'reason', flag: '--reason <text>', description: 'why it still holds (recorded)' },
    ],
    text: writtenText('confirmed'),
  },
  run: (ctx, caller, input) => confirmItem(ctx, caller, input),
});

/** `relate_items`: parent, anchor, blocked_by or link; one parent, no cycles, the sole anchor kept. */
export const relateItemsOp = defineOperation({
  name: 'relate_items',
  summary: 'add or remove a relation between two items: parent, anchor, blocked_by or link',
  input: relateItemsInput,
  output: writtenOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: true,
  auth: { access: 'token', project: 'project' },
  http: { method: 'POST', path: '/memory/items/relate' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'relate' } },
  cli: {
    command: ['items', 'relate'],
    args: ['item'],
    options: [
      projectFlag,
      {
        field: 'relation',
        flag: '--relation <kind>',
        required: true,
        description: 'parent, anchor, blocked_by or link',
      },
      { field: 'target', flag: '--target <id>', required: true, description: 'the other item' },
      {
        field: 'remove',
        flag: '--remove',
        parse: 'boolean',
        description: 'remove the relation instead',
      },
      {
        field: 'reason',
        flag: '--reason <text>',
        description: 'why (recorded; required to remove)',
      },
    ],
    text: writtenText('related'),
  },
  run: (ctx, caller, input) => relateItems(ctx, caller, input),
});

/** `delete_items` (admin): a soft delete that cascades down the parent tree. */
export const deleteItemsOp = defineOperation({
  name: 'delete_items',
  summary: 'soft-delete items and their descendants (admin)',
  input: deleteItemsInput,
  output: writtenOut,
  kind: 'write',
  vectorsLater: true,
  idempotent: true,
  destructive: true,
  auth: { access: 'admin', project: 'project' },
  http: { method: 'POST', path: '/memory/items/delete' },
  mcp: { tool: TOOL, select: { field: 'action', value: 'delete' } },
  cli: {
    command: ['items', 'delete'],
    args: ['ids'],
    variadic: true,
    options: [
      projectFlag,
      { field: 'reason', flag: '--reason <text>', required: true, description: 'why (recorded)' },
    ],
    text: writtenText('deleted'),
  },
  run: (ctx, caller, input) => deleteItems(ctx, caller, input),
});
