import type { EventType } from './catalogue.js';

/**
 * What each event records, in one sentence, for the event catalogue (docs/events.md). A
 * `Record` over every type: a new event type without its sentence does not compile.
 */
export const EVENT_SUMMARIES: Record<EventType, string> = {
  run: 'An extractor run starts: its level, the standing query an L1 run answers, the model, chunk size and memory budget.',
  chunk:
    'A piece of a source the run read: its source, span, content sha and (since stop 35) the sha of its bytes; `derived` when it repeats a registered skill or reference text.',
  gate: "The gate's decision on one chunk: update the memory or not, stop or go on, and why.",
  evidence: 'A passage of a chunk kept as evidence for a memory, with its source.',
  memory:
    "The run's memory after a step: its text, addressable lines (each with its own parent chunks) and token count.",
  run_end:
    'A run ends: chunks seen and used, the final memory, an error, lines a tombstone refused.',
  reference: 'A passage of a reference corpus (documentation), with its heading path.',
  tombstone:
    'A node (a memory, a reference passage) retracted by its sha: it leaves recall; `mem ref sync` writes one for a passage a changed file lost.',
  recovery:
    "A torn log tail cut at open: the segment, the offset cut at, the dropped bytes' size and sha.",
  principal_added: 'A principal (a person or an agent) is known.',
  project_added: 'A project exists.',
  member_added: 'A principal may read and write a project.',
  member_removed: 'A principal loses a project.',
  token_minted:
    "A bearer token: its principal, projects, capabilities, expiry and the secret's sha256 (never the secret).",
  token_revoked: 'A token stops working.',
  ingest_accepted: 'An ingest job was accepted: its source, format and record count.',
  ingest_finished:
    'An ingest job ended: done or failed (with the error), chunks and events written.',
  projection_settings_set:
    'A projection setting (evidence notes in the vault), so a rebuild from the log alone reproduces every projection.',
  purged:
    "A text removed for good: the lines whose bytes were blanked in place and the text's sha (never the text).",
  forgotten:
    'A memory line, memory or item forgotten: it leaves recall and the vault, and its wording is refused from then on.',
  superseded: 'A line replaced by a corrected text: the old sha, the new sha and the new text.',
  confirmed: 'A line or memory confirmed as still true.',
  line_added: 'A line a person wrote into an L1/L2 note in the vault, under the line it follows.',
  resurfaced:
    'A line a tombstone refuses, written anyway with `--force`: the review queue opens a finding for it.',
  review_opened:
    'A review finding (resurfacing, contradiction, duplicate, stale grounding; orphaned knowledge and duplicate items over item ids) over the line shas it names, with which rule fired.',
  review_decided: 'A review finding decided (keep, dismiss, supersede), and why.',
  idempotency_recorded:
    "A write's Idempotency-Key outcome, in the write's own batch: hashes of scope and key, the request fingerprint, the op and batch size.",
  skill_drafted: 'A skill (SKILL.md) drafted from memory lines, with what it was generated from.',
  skill_promoted: 'A drafted skill becomes live.',
  skill_retired: 'A skill leaves use.',
  corpus_registered: 'A reference corpus: a documentation tree under a name, with its globs.',
  corpus_removed: 'A reference corpus is no longer read.',
  item_added:
    'A curated item (rule, fact, task, thread, reminder) with its fields; its id is derived from this event.',
  item_updated: 'Fields of an item changed (a confirmation moves `review_after`), with the reason.',
  item_resolved:
    'A work item moved to a final status (done, dropped, archived), with the status before.',
  item_related: 'A relation between two items: parent, anchor, blocked_by or link.',
  item_unrelated: 'A relation removed.',
  item_deleted: 'An item deleted (soft, admin); a cascade is one event per item.',
  item_attention_set:
    "An item's attention tier: active, reference or archive (archive leaves default recall).",
  item_pinned: 'An item pinned: it ranks first among equal relevance.',
  item_unpinned: 'A pin removed.',
  item_logged:
    'A history entry on an item (its text, an optional conversation label): activity that moves its thread, never its fields.',
  line_pinned: 'A memory line pinned: it ranks first among equal relevance.',
  line_unpinned: "A memory line's pin removed.",
};
