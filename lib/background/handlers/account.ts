// Signing in and out, and what the rest of the background does when the account changes.
import { emit } from '../../messaging/client.js';
import type { Handlers } from '../../messaging/router.js';
import type { Account } from '../../model.js';
import { signedOutReasonItem, tagsCacheItem } from '../../storage/items.js';
import { reportError } from '../report-error.js';
import type { Services } from './services.js';
import { clearSyncAlarm, ensureSyncAlarm } from './sync.js';

export function accountHandlers({ auth, account, queue }: Services): Pick<Handlers, 'getStatus' | 'signIn' | 'useTestToken' | 'signOut'> {
  return {
    getStatus: async () => ({
      account: await account(),
      signedOutReason: await signedOutReasonItem.getValue(),
      serverUrl: await auth.serverUrl(),
      queue: await queue.view(),
    }),
    signIn: ({ serverUrl }) => auth.signInWithOAuth(serverUrl),
    useTestToken: ({ serverUrl, token }) => auth.signInWithTestToken(serverUrl, token),
    signOut: async () => {
      await auth.signOut();
      return null;
    },
  };
}

/** Signed in: sync and send what waits. Signed out by the user: forget the account's caches. */
export async function onAuthChanged(s: Services, acc: Account | null, reason: string | null, userInitiated: boolean): Promise<void> {
  const { exists, index, collections, queue, highlights, badge } = s;
  exists.invalidate();
  await index.reset();
  if (acc) {
    await ensureSyncAlarm();
    index.sync().catch(reportError('saved-link index sync'));
    collections.refresh().catch(reportError('collection list refresh'));
    queue.drain().catch(reportError('offline queue drain'));
  } else {
    if (userInitiated) {
      // Writes still waiting are kept for their account (the options page warned before signing
      // out): signing in to it again sends them. So are the ids their highlight changes need.
      await collections.forget();
      await tagsCacheItem.setValue(null);
      await highlights.forgetAll({ keepIds: (await queue.state()).entries.length > 0 });
    }
    await clearSyncAlarm();
  }
  emit('authChanged', { account: acc, signedOutReason: reason });
  emit('queueChanged', await queue.view());
  await badge.refreshAll();
}
