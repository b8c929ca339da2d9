// The documented conflict rules, for a thing changed on both sides since the last sync:
// - a title (or address, or folder) changed on both sides: the later change wins;
// - deleted on one side, changed on the other: the bookmark is kept (a delete never wins over an edit).
// Each resolution is logged as data; the options page words it (describeConflict), so the service
// worker carries no log text.
import type { ConflictEntry, Side } from './types.js';

/** Which side's value wins when both changed it: the later change; a tie goes to the browser (the person at this device). */
export function laterSide(browserAt: number, tidemarkAt: number): Side {
  return tidemarkAt > browserAt ? 'tidemark' : 'browser';
}

const where = (side: Side) => (side === 'browser' ? 'in the browser' : 'in Tidemark');

/** The log line's resolution, for a person. */
export function describeConflict(c: ConflictEntry): string {
  if (c.kind === 'folder-kept') return 'collection removed in Tidemark but the folder holds new bookmarks: kept the folder, it becomes a new collection';
  if (c.kind === 'deleted') return `deleted ${where(c.side)} but changed ${where(c.side === 'browser' ? 'tidemark' : 'browser')}: kept the bookmark`;
  return `${c.field} changed on both sides: kept the later change (made ${where(c.side)})`;
}

/** The log's newest entries first, at most `max`. */
export function appendLog(log: ConflictEntry[], entries: ConflictEntry[], max = 50): ConflictEntry[] {
  return [...entries.slice().reverse(), ...log].slice(0, max);
}
