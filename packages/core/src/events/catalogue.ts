import { z } from 'zod';
import { MemError } from '../errors.js';
import { contentSha256 } from '../identity.js';
import { envelopeHead, envelopeTail, writerSchema } from './envelope.js';
import {
  chunkShape,
  evidenceShape,
  gateShape,
  memoryShape,
  recoveryShape,
  referenceShape,
  runEndShape,
  runShape,
  tombstoneShape,
} from './payloads.js';
import {
  memberAddedShape,
  memberRemovedShape,
  principalAddedShape,
  projectAddedShape,
  tokenMintedShape,
  tokenRevokedShape,
} from './admin-payloads.js';
import { memoryLinesIssues } from './memory-lines.js';
import { isKnowledge } from '../items/model.js';
import { ingestAcceptedShape, ingestFinishedShape } from './ingest-payloads.js';
import { projectionSettingsSetShape } from './settings-payloads.js';
import { purgedShape } from './purge-payloads.js';
import {
  confirmedShape,
  forgottenShape,
  lineAddedShape,
  linePinnedShape,
  lineUnpinnedShape,
  resurfacedShape,
  supersededShape,
} from './correction-payloads.js';
import { reviewDecidedShape, reviewOpenedShape } from './review-payloads.js';
import { idempotencyRecordedShape } from './idempotency-payloads.js';
import { skillDraftedShape, skillPromotedShape, skillRetiredShape } from './skill-payloads.js';
import { corpusRegisteredShape, corpusRemovedShape } from './corpus-payloads.js';
import {
  itemAddedShape,
  itemAttentionSetShape,
  itemDeletedShape,
  itemLoggedShape,
  itemPinnedShape,
  itemUnpinnedShape,
  itemRelatedShape,
  itemResolvedShape,
  itemUnrelatedShape,
  itemUpdatedShape,
} from './item-payloads.js';
import { itemDraftIssues } from '../items/draft.js';

type Shape = Record<string, z.ZodType>;
type Check<S extends Shape> = (value: z.infer<z.ZodObject<S>>, ctx: z.RefinementCtx) => void;

interface EventOptions<S extends Shape> {
  /**
   * The type's current schema version (default 1). Raise it only with an upcaster from the
   * previous version in upcasters.ts: logged lines are never rewritten, so readers upcast them.
   */
  version?: number;
  check?: Check<S>;
}

/**
 * One definition per event type gives two schemas: the payload a writer hands to the log
 * (`type` plus fields) and the logged event (envelope, payload, `prev`), in serialisation order.
 * A type past version 1 carries `v` right after `type`; at version 1 it has none, which is how
 * every line written before versions existed reads as version 1 with its bytes unchanged.
 */
function defineEvent<T extends string, S extends Shape>(
  type: T,
  shape: S,
  options: EventOptions<S> = {},
) {
  const version = options.version ?? 1;
  const payload = z.strictObject({ type: z.literal(type), ...shape });
  const event = z.strictObject({
    ...envelopeHead,
    type: z.literal(type),
    ...(version > 1 ? { v: z.literal(version) } : {}),
    writer: writerSchema,
    ...shape,
    ...envelopeTail,
  });
  const check = options.check;
  if (check) {
    const refine = (value: unknown, ctx: z.RefinementCtx) =>
      check(value as z.infer<z.ZodObject<S>>, ctx);
    return {
      type,
      version,
      payload: payload.superRefine(refine),
      event: event.superRefine(refine),
    };
  }
  return { type, version, payload, event };
}

const run = defineEvent('run', runShape, {
  check: (value, ctx) => {
    if (value.level === 'L1' && value.query_id === null) {
      ctx.addIssue({
        code: 'custom',
        path: ['query_id'],
        message: 'expected a query id: an L1 run answers one standing query',
      });
    }
    const expectedInput = value.level === 'L1' ? 'chunk' : 'L1';
    if (value.input_level !== expectedInput) {
      ctx.addIssue({
        code: 'custom',
        path: ['input_level'],
        message: `expected "${expectedInput}": an ${value.level} run reads ${expectedInput === 'chunk' ? 'chunks' : 'L1 memories'}`,
      });
    }
  },
});
const chunk = defineEvent('chunk', chunkShape);
const gate = defineEvent('gate', gateShape);
const evidence = defineEvent('evidence', evidenceShape);
const memory = defineEvent('memory', memoryShape, {
  version: 2,
  check: (value, ctx) => {
    for (const issue of memoryLinesIssues(value))
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
  },
});
const runEnd = defineEvent('run_end', runEndShape, {
  check: (value, ctx) => {
    if (value.chunks_used > value.chunks_seen) {
      ctx.addIssue({
        code: 'custom',
        path: ['chunks_used'],
        message: 'expected chunks_used <= chunks_seen',
      });
    }
  },
});
const reference = defineEvent('reference', referenceShape);
const tombstone = defineEvent('tombstone', tombstoneShape);
const recovery = defineEvent('recovery', recoveryShape, { version: 2 });
const principalAdded = defineEvent('principal_added', principalAddedShape);
const projectAdded = defineEvent('project_added', projectAddedShape);
const memberAdded = defineEvent('member_added', memberAddedShape);
const memberRemoved = defineEvent('member_removed', memberRemovedShape);
const tokenMinted = defineEvent('token_minted', tokenMintedShape);
const tokenRevoked = defineEvent('token_revoked', tokenRevokedShape);
const ingestAccepted = defineEvent('ingest_accepted', ingestAcceptedShape);
const ingestFinished = defineEvent('ingest_finished', ingestFinishedShape, {
  check: (value, ctx) => {
    if ((value.status === 'failed') !== (value.error !== undefined)) {
      ctx.addIssue({
        code: 'custom',
        path: ['error'],
        message: 'expected an error exactly when status is "failed"',
      });
    }
  },
});

const projectionSettingsSet = defineEvent('projection_settings_set', projectionSettingsSetShape);
const purged = defineEvent('purged', purgedShape, {
  check: (value, ctx) => {
    const seqs = value.lines.map((line) => line.seq);
    if (seqs.some((seq, i) => i > 0 && seq <= seqs[i - 1]!))
      ctx.addIssue({
        code: 'custom',
        path: ['lines'],
        message: 'expected lines in increasing seq order, each seq once',
      });
  },
});
const forgotten = defineEvent('forgotten', forgottenShape);
const superseded = defineEvent('superseded', supersededShape, {
  check: (value, ctx) => {
    if (value.after_sha256 === value.before_sha256)
      ctx.addIssue({
        code: 'custom',
        path: ['after_sha256'],
        message: 'expected a text that differs from the one it supersedes',
      });
  },
});
const confirmed = defineEvent('confirmed', confirmedShape);
const linePinned = defineEvent('line_pinned', linePinnedShape);
const lineUnpinned = defineEvent('line_unpinned', lineUnpinnedShape);
const lineAdded = defineEvent('line_added', lineAddedShape, {
  check: (value, ctx) => {
    if ((value.level === 'L1') !== (value.query_id !== null))
      ctx.addIssue({
        code: 'custom',
        path: ['query_id'],
        message: 'expected a query id for an L1 note, null for the L2 index',
      });
    if (value.sha256 !== contentSha256(value.text))
      ctx.addIssue({
        code: 'custom',
        path: ['sha256'],
        message: 'expected the content sha256 of text',
      });
  },
});
const resurfaced = defineEvent('resurfaced', resurfacedShape);
const reviewOpened = defineEvent('review_opened', reviewOpenedShape, {
  check: (value, ctx) => {
    const sorted = [...new Set(value.subjects)].sort();
    if (sorted.join(',') !== value.subjects.join(','))
      ctx.addIssue({
        code: 'custom',
        path: ['subjects'],
        message: 'expected subjects sorted, each sha once',
      });
  },
});
const reviewDecided = defineEvent('review_decided', reviewDecidedShape);
const idempotencyRecorded = defineEvent('idempotency_recorded', idempotencyRecordedShape);
const skillDrafted = defineEvent('skill_drafted', skillDraftedShape);
const skillPromoted = defineEvent('skill_promoted', skillPromotedShape);
const skillRetired = defineEvent('skill_retired', skillRetiredShape);
const corpusRegistered = defineEvent('corpus_registered', corpusRegisteredShape, {
  check: (value, ctx) => {
    const sorted = [...new Set(value.globs)].sort();
    if (sorted.join('\0') !== value.globs.join('\0'))
      ctx.addIssue({
        code: 'custom',
        path: ['globs'],
        message: 'expected globs sorted, each once',
      });
  },
});
const corpusRemoved = defineEvent('corpus_removed', corpusRemovedShape);
const itemAdded = defineEvent('item_added', itemAddedShape, {
  check: (value, ctx) => {
    for (const issue of itemDraftIssues(value.item_type, value))
      ctx.addIssue({ code: 'custom', path: issue.path, message: issue.message });
    if (value.from_line !== undefined && !isKnowledge(value.item_type))
      ctx.addIssue({
        code: 'custom',
        path: ['from_line'],
        message: `from_line does not apply to a ${value.item_type}: a line is promoted to a fact or rule only`,
      });
  },
});
const itemUpdated = defineEvent('item_updated', itemUpdatedShape);
const itemResolved = defineEvent('item_resolved', itemResolvedShape);
const itemRelated = defineEvent('item_related', itemRelatedShape, {
  check: (value, ctx) => {
    if (value.item === value.target)
      ctx.addIssue({
        code: 'custom',
        path: ['target'],
        message: 'expected another item: an item cannot relate to itself',
      });
  },
});
const itemUnrelated = defineEvent('item_unrelated', itemUnrelatedShape);
const itemDeleted = defineEvent('item_deleted', itemDeletedShape);
const itemAttentionSet = defineEvent('item_attention_set', itemAttentionSetShape);
const itemPinned = defineEvent('item_pinned', itemPinnedShape);
const itemUnpinned = defineEvent('item_unpinned', itemUnpinnedShape);
const itemLogged = defineEvent('item_logged', itemLoggedShape);

/** Every event type mem knows, in catalogue order. */
export const EVENT_DEFINITIONS = [
  run,
  chunk,
  gate,
  evidence,
  memory,
  runEnd,
  reference,
  tombstone,
  recovery,
  principalAdded,
  projectAdded,
  memberAdded,
  memberRemoved,
  tokenMinted,
  tokenRevoked,
  ingestAccepted,
  ingestFinished,
  projectionSettingsSet,
  purged,
  forgotten,
  superseded,
  confirmed,
  lineAdded,
  resurfaced,
  reviewOpened,
  reviewDecided,
  idempotencyRecorded,
  skillDrafted,
  skillPromoted,
  skillRetired,
  corpusRegistered,
  corpusRemoved,
  itemAdded,
  itemUpdated,
  itemResolved,
  itemRelated,
  itemUnrelated,
  itemDeleted,
  itemAttentionSet,
  itemPinned,
  itemUnpinned,
  itemLogged,
  linePinned,
  lineUnpinned,
] as const;

export const EVENT_TYPES = EVENT_DEFINITIONS.map((d) => d.type);
export type EventType = (typeof EVENT_DEFINITIONS)[number]['type'];

/** The payloads writers append: a discriminated union on `type`. */
export const payloadSchema = z.discriminatedUnion('type', [
  run.payload,
  chunk.payload,
  gate.payload,
  evidence.payload,
  memory.payload,
  runEnd.payload,
  reference.payload,
  tombstone.payload,
  recovery.payload,
  principalAdded.payload,
  projectAdded.payload,
  memberAdded.payload,
  memberRemoved.payload,
  tokenMinted.payload,
  tokenRevoked.payload,
  ingestAccepted.payload,
  ingestFinished.payload,
  projectionSettingsSet.payload,
  purged.payload,
  forgotten.payload,
  superseded.payload,
  confirmed.payload,
  lineAdded.payload,
  resurfaced.payload,
  reviewOpened.payload,
  reviewDecided.payload,
  idempotencyRecorded.payload,
  skillDrafted.payload,
  skillPromoted.payload,
  skillRetired.payload,
  corpusRegistered.payload,
  corpusRemoved.payload,
  itemAdded.payload,
  itemUpdated.payload,
  itemResolved.payload,
  itemRelated.payload,
  itemUnrelated.payload,
  itemDeleted.payload,
  itemAttentionSet.payload,
  itemPinned.payload,
  itemUnpinned.payload,
  itemLogged.payload,
  linePinned.payload,
  lineUnpinned.payload,
]);

/** Logged events: envelope + payload + `prev`, a discriminated union on `type`. */
export const eventSchema = z.discriminatedUnion('type', [
  run.event,
  chunk.event,
  gate.event,
  evidence.event,
  memory.event,
  runEnd.event,
  reference.event,
  tombstone.event,
  recovery.event,
  principalAdded.event,
  projectAdded.event,
  memberAdded.event,
  memberRemoved.event,
  tokenMinted.event,
  tokenRevoked.event,
  ingestAccepted.event,
  ingestFinished.event,
  projectionSettingsSet.event,
  purged.event,
  forgotten.event,
  superseded.event,
  confirmed.event,
  lineAdded.event,
  resurfaced.event,
  reviewOpened.event,
  reviewDecided.event,
  idempotencyRecorded.event,
  skillDrafted.event,
  skillPromoted.event,
  skillRetired.event,
  corpusRegistered.event,
  corpusRemoved.event,
  itemAdded.event,
  itemUpdated.event,
  itemResolved.event,
  itemRelated.event,
  itemUnrelated.event,
  itemDeleted.event,
  itemAttentionSet.event,
  itemPinned.event,
  itemUnpinned.event,
  itemLogged.event,
  linePinned.event,
  lineUnpinned.event,
]);

export type Payload = z.infer<typeof payloadSchema>;
export type LogEvent = z.infer<typeof eventSchema>;
export type PayloadOf<T extends EventType> = Extract<Payload, { type: T }>;
export type EventOf<T extends EventType> = Extract<LogEvent, { type: T }>;

const definitionsByType = new Map<string, (typeof EVENT_DEFINITIONS)[number]>(
  EVENT_DEFINITIONS.map((d) => [d.type, d]),
);

/** The schemas of one event type, or undefined when the type is unknown. */
export function eventDefinition(type: string) {
  return definitionsByType.get(type);
}

/** The current schema version of `type`: what writers write and readers upcast to. */
export function currentVersion(type: EventType): number {
  return definitionsByType.get(type)!.version;
}

export function isEventType(type: unknown): type is EventType {
  return typeof type === 'string' && definitionsByType.has(type);
}

/** Field order of a logged event of `type`: envelope head, `type`, `writer`, payload, `prev`. */
export function eventKeyOrder(type: EventType): readonly string[] {
  const order = keyOrders.get(type);
  if (!order)
    throw new MemError(
      'UNKNOWN_EVENT_TYPE',
      `unknown event type ${JSON.stringify(type)}: expected one of ${EVENT_TYPES.join(', ')}`,
      { type },
    );
  return order;
}

const keyOrders = new Map<string, readonly string[]>(
  EVENT_DEFINITIONS.map((d) => [d.type, Object.freeze(Object.keys(d.event.shape))]),
);
