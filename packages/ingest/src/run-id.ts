import { randomBytes } from 'node:crypto';

/** A run id that sorts by start time and names what ran: `<query>-<yyyymmddThhmmssZ>-<4 hex>`. */
export function newRunId(label: string, now: Date = new Date()): string {
  const stamp = now
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d+Z$/, 'Z');
  return `${label}-${stamp}-${randomBytes(2).toString('hex')}`;
}
