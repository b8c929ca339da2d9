// The offline queue's drain and the saved-link index's sync: their alarms, and the queue's messages.
import { browser, type Browser } from 'wxt/browser';
import type { Handlers } from '../../messaging/router.js';
import { reportError } from '../report-error.js';
import type { Services } from './services.js';

const ALARM_DRAIN = 'queue-drain';
const ALARM_SYNC = 'index-sync';
const SYNC_EVERY_MINUTES = 5;
const DRAIN_EVERY_MINUTES = 0.5;

/** Keeps the drain alarm while writes are waiting, and only then. */
export async function scheduleDrain(pending: boolean): Promise<void> {
  if (pending) {
    const existing = await browser.alarms.get(ALARM_DRAIN);
    if (!existing) await browser.alarms.create(ALARM_DRAIN, { periodInMinutes: DRAIN_EVERY_MINUTES, delayInMinutes: DRAIN_EVERY_MINUTES });
  } else {
    await browser.alarms.clear(ALARM_DRAIN);
  }
}

export async function ensureSyncAlarm(): Promise<void> {
  if (!(await browser.alarms.get(ALARM_SYNC))) await browser.alarms.create(ALARM_SYNC, { periodInMinutes: SYNC_EVERY_MINUTES });
}

export async function clearSyncAlarm(): Promise<void> {
  await browser.alarms.clear(ALARM_SYNC);
}

export function alarmHandler({ queue, index }: Services) {
  return async (alarm: Browser.alarms.Alarm) => {
    if (alarm.name === ALARM_DRAIN) await queue.drain().catch(reportError('offline queue drain'));
    if (alarm.name === ALARM_SYNC) await index.sync().catch(reportError('saved-link index sync'));
  };
}

export function queueHandlers({ queue }: Services): Pick<Handlers, 'getQueue' | 'drainQueue' | 'dismissFailures'> {
  return {
    getQueue: () => queue.view(),
    drainQueue: async () => {
      await queue.drain().catch(reportError('offline queue drain'));
      return queue.view();
    },
    dismissFailures: async () => {
      await queue.dismissFailures();
      return queue.view();
    },
  };
}
