// Failures of background jobs nobody awaits (sync, drain, registration) are reported once: to the
// log, and as the last background error the options page shows. Never swallowed.
import 'fake-indexeddb/auto';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { resetExtension } from './helpers/reset.js';
import { TidemarkApi } from '../../lib/api/client/index.js';
import { SavedIndexService } from '../../lib/background/index-sync.js';
import { reportError } from '../../lib/background/report-error.js';
import type { Account } from '../../lib/model.js';
import { lastBackgroundErrorItem } from '../../lib/storage/items.js';

const account: Account = { serverUrl: 'http://127.0.0.1:9', userId: 1, name: 'Ada', email: 'ada@example.test', method: 'test-token' };

beforeEach(() => resetExtension());
afterEach(() => vi.restoreAllMocks());

describe('background errors', () => {
  it('a sync that cannot reach the server is logged once and kept as the last background error', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    // Nothing listens on port 9: the same failure a sync meets when the server is down.
    const api = new TidemarkApi({
      serverUrl: () => 'http://127.0.0.1:9',
      tokens: { getAccessToken: async () => 'token', refreshAfterUnauthorized: async () => null },
      retry: { retries: 0 },
    });
    const before = Date.now();
    await new SavedIndexService({ api, account: async () => account }).sync().catch(reportError('saved-link index sync'));
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0][0])).toMatch(/^Tidemark: saved-link index sync failed: Could not reach the Tidemark server at http:\/\/127\.0\.0\.1:9/);
    const kept = await lastBackgroundErrorItem.getValue();
    expect(kept).toMatchObject({ job: 'saved-link index sync', message: expect.stringMatching(/Could not reach the Tidemark server/) });
    expect(kept!.at).toBeGreaterThanOrEqual(before);
  });

  it('the newest failure replaces the one before; anything thrown (not only Errors) is kept as text', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    await reportError('offline queue drain')(new Error('first'));
    await reportError('highlighter registration')('no permission');
    expect(await lastBackgroundErrorItem.getValue()).toMatchObject({ job: 'highlighter registration', message: 'no permission' });
  });

  it('when storage itself fails, the failure is still logged and the handler does not throw', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    vi.spyOn(lastBackgroundErrorItem, 'setValue').mockRejectedValue(new Error('quota'));
    await expect(reportError('collection list refresh')(new Error('down'))).resolves.toBeUndefined();
    expect(logged.mock.calls.map((c) => String(c[0]))).toEqual([
      'Tidemark: collection list refresh failed: down',
      'Tidemark: could not keep the last background error',
    ]);
  });
});
