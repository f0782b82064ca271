import type { z } from 'zod';
import { EVENT_DEFINITIONS, type EventType } from './catalogue.js';
import { EVENT_SUMMARIES } from './summaries.js';

/** Which projections read each event type: a projector's name → the types it `handles`. */
export type EventReaders = Record<string, readonly EventType[]>;

/**
 * The event catalogue as Markdown (docs/events.md): every type in catalogue order with its
 * schema version, what it records, its payload fields (`?` marks an optional one) and the
 * projections that read it. Rendered from the definitions the log validates against, so the
 * document cannot drift from them (test/event-catalogue-doc.unit.spec.ts compares the file).
 */
export function renderEventCatalogue(readers: EventReaders): string {
  const names = Object.keys(readers).sort();
  const rows = EVENT_DEFINITIONS.map((definition) => {
    const fields = Object.entries(definition.payload.shape as Record<string, z.ZodType>)
      .filter(([name]) => name !== 'type')
      .map(([name, field]) => `\`${name}${field.safeParse(undefined).success ? '?' : ''}\``)
      .join(' ');
    const readBy = names.filter((name) => readers[name]!.includes(definition.type));
    return `| \`${definition.type}\` | ${definition.version} | ${EVENT_SUMMARIES[definition.type]} | ${fields} | ${readBy.join(', ') || '—'} |`;
  });
  return [
    '| type | v | records | payload fields | read by |',
    '|---|---|---|---|---|',
    ...rows,
  ].join('\n');
}
