// The pages' side of the protocol (popup, options): typed requests to the background, and the
// background's broadcast events.
import { browser } from '@wxt-dev/browser';
import type { DataOf, EventEnvelope, EventMap, MessageType, Reply, ResultOf } from './protocol.js';
import type { ExportRequest } from './schemas.js';
import { EXPORT_PORT, ExportAssembler, type ExportPortMessage } from '../library/export-transfer.js';

class MessageError extends Error {
  constructor(
    message: string,
    readonly kind: string,
  ) {
    super(message);
  }
}

export async function send<K extends MessageType>(type: K, data: DataOf<K>): Promise<ResultOf<K>> {
  const reply = (await browser.runtime.sendMessage({ type, data })) as Reply<ResultOf<K>> | undefined;
  if (!reply) throw new MessageError('Tidemark\'s background did not answer. Reload the extension and try again.', 'no-answer');
  if (!reply.ok) throw new MessageError(reply.error.message, reply.error.kind);
  return reply.value;
}

function isEventEnvelope(x: unknown): x is EventEnvelope {
  return !!x && typeof x === 'object' && typeof (x as { event?: unknown }).event === 'string';
}

/** Calls `cb` for each broadcast of `event` from the background; returns the unsubscribe function. */
export function onEvent<E extends keyof EventMap>(event: E, cb: (data: EventMap[E]) => void): () => void {
  const listener = (message: unknown, sender: { id?: string; tab?: unknown }) => {
    if (sender.id !== browser.runtime.id || sender.tab) return undefined;
    if (isEventEnvelope(message) && message.event === event) cb(message.data as EventMap[E]);
    return undefined;
  };
  browser.runtime.onMessage.addListener(listener);
  return () => browser.runtime.onMessage.removeListener(listener);
}

/** Background: tells every open page. Nobody listening (no popup open) is fine. */
export function emit<E extends keyof EventMap>(event: E, data: EventMap[E]): void {
  const envelope: EventEnvelope<E> = { event, data };
  // Rejects when no extension page listens (no popup open): nobody to tell.
  browser.runtime.sendMessage(envelope).catch(() => {});
}

/**
 * Library page: asks the background for an export file over a port and gathers its pieces into a
 * Blob (lib/library/export-transfer.ts). Rejects with what went wrong, in words for the user.
 */
export function receiveExport(request: ExportRequest): Promise<{ name: string; blob: Blob }> {
  return new Promise((resolve, reject) => {
    const port = browser.runtime.connect({ name: EXPORT_PORT });
    const file = new ExportAssembler();
    let settled = false;
    const settle = (done: () => void) => {
      if (settled) return;
      settled = true;
      done();
      port.disconnect();
    };
    port.onMessage.addListener((m: unknown) => {
      try {
        const finished = file.take(m as ExportPortMessage);
        if (finished) settle(() => resolve(finished));
      } catch (err) {
        settle(() => reject(err as Error));
      }
    });
    port.onDisconnect.addListener(() => {
      if (!settled) settle(() => reject(new MessageError('Tidemark\'s background stopped before the export was complete. Try again.', 'no-answer')));
    });
    port.postMessage(request);
  });
}
