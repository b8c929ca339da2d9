// Highlight writes: PUT /bookmark/{id} with `highlights`, online first, else through the offline queue.
import type { TidemarkApi } from '../api/client/index.js';
import type { Bookmark, HighlightChange } from '../api/types.js';
import { t } from '../i18n.js';
import type { Account } from '../model.js';
import { serverIdOf, type BookmarkRef } from '../bookmark-ref.js';
import { UserFacingError } from '../messaging/router.js';
import { isLocalKey, type QueuedHighlightChange, type WriteQueue } from './queue.js';
import { isOffline, userError } from './server-answers.js';

interface HighlightWriterDeps {
  api: TidemarkApi;
  queue: WriteQueue;
  account: () => Promise<Account | null>;
  onSaved: (bookmark: Bookmark) => void;
  newKey: () => string;
}

/**
 * PUT /bookmark/{id} with `highlights`; queued when the server cannot be reached, or when a change
 * names a highlight whose add still waits in the queue (local key). Null: queued.
 */
export async function writeHighlights(
  deps: HighlightWriterDeps,
  ref: BookmarkRef,
  changes: QueuedHighlightChange[],
  label: string,
): Promise<Bookmark | null> {
  const account = await deps.account();
  if (!account) throw new UserFacingError(t('errorSignedOut'), 'signed-out');
  const resolved = await deps.queue.serverRef(ref);
  const id = serverIdOf(resolved);
  const key = deps.newKey();
  let tried = false;
  if (id !== null && !changes.some((c) => isLocalKey(c._id)) && !(await deps.queue.busy())) {
    try {
      // The same body the queue would send for it (without the local marks), so a repeat under this key is recognised.
      const highlights: HighlightChange[] = changes.map(({ _local: _mark, ...c }) => c);
      const b = await deps.api.updateBookmark(id, { highlights }, { idempotencyKey: key, retries: 1 });
      deps.onSaved(b);
      return b;
    } catch (err) {
      if (!isOffline(err)) throw userError(err);
      // The server may have taken it (only the answer was lost): the queue repeats it as it is.
      tried = true;
    }
  }
  await deps.queue.enqueue(
    { op: 'update', ref: resolved, body: { highlights: changes }, key, userId: account.userId, serverUrl: account.serverUrl, label },
    { tried },
  );
  return null;
}

/** The offline queue's label of a highlight write. */
export function writeLabel(text: string): string {
  const short = text.length > 60 ? `${text.slice(0, 59)}…` : text;
  return t('queueHighlightLabel', short);
}
