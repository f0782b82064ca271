import { EVENT_DEFINITIONS } from './catalogue.js';
import { upcasterChain } from './upcast.js';
import { UPCASTERS } from './upcasters.js';

/**
 * The catalogue's read-time upcaster: a logged line of any version this mem knows, brought to
 * its type's current version before validation. Built at load, so a missing or stray step
 * fails every reader at once instead of the first log that needs it.
 */
export const upcastEvent = upcasterChain(
  new Map(EVENT_DEFINITIONS.map((d) => [d.type, d.version])),
  UPCASTERS,
);
