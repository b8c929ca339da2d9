// The documented conflict rules, for a thing changed on both sides since the last sync:
// - a title (or address, or folder) changed on both sides: the later change wins;
// - deleted on one side, changed on the other: the bookmark is kept (a delete never wins over an edit).
// Each resolution is written to a log the options page shows.
import type { ConflictEntry } from './types.js';

export type Side = 'browser' | 'tidemark';

/** Which side's value wins when both changed it: the later change; a tie goes to the browser (the person at this device). */
export function laterSide(browserAt: number, tidemarkAt: number): Side {
  return tidemarkAt > browserAt ? 'tidemark' : 'browser';
}

const where = (side: Side) => (side === 'browser' ? 'in the browser' : 'in Tidemark');

export function bothChanged(title: string, field: 'title' | 'address' | 'folder', winner: Side, at: number): ConflictEntry {
  return { at, title, resolution: `${field} changed on both sides: kept the later change (made ${where(winner)})` };
}

export function deletedAndChanged(title: string, deletedOn: Side, at: number): ConflictEntry {
  const other: Side = deletedOn === 'browser' ? 'tidemark' : 'browser';
  return { at, title, resolution: `deleted ${where(deletedOn)} but changed ${where(other)}: kept the bookmark` };
}

export function folderKept(title: string, at: number): ConflictEntry {
  return { at, title, resolution: 'collection removed in Tidemark but the folder holds new bookmarks: kept the folder, it becomes a new collection' };
}

/** The log's newest entries first, at most `max`. */
export function appendLog(log: ConflictEntry[], entries: ConflictEntry[], max = 50): ConflictEntry[] {
  return [...entries.slice().reverse(), ...log].slice(0, max);
}
