// The background's side of the protocol: checks who sent a message and what it carries, then runs
// its handler. Registered synchronously; answers by returning a Promise (never an async listener).
import type { Browser } from 'wxt/browser';
import { check } from './check.js';
import type { DataOf, MessageType, Reply, ResultOf, SenderKind } from './protocol.js';
import { MESSAGES } from './schemas.js';

type Sender = Browser.runtime.MessageSender;

export type Handlers = {
  [K in MessageType]: (data: DataOf<K>, sender: Sender) => Promise<ResultOf<K>> | ResultOf<K>;
};

export interface ExtensionIdentity {
  /** runtime.id */
  id: string;
  /** runtime.getURL('/') */
  baseUrl: string;
}

/**
 * One of the extension's own pages (popup, options, also when opened in a tab), a content script of
 * this extension in a web page, or null for anything else (another extension, a web page).
 */
export function classifySender(sender: Sender, self: ExtensionIdentity): SenderKind | null {
  if (sender.id !== self.id) return null;
  const url = sender.url ?? '';
  if (url.startsWith(self.baseUrl)) return 'page';
  if (sender.tab && /^https?:/.test(url)) return 'content';
  return null;
}

/** A message to the background: `{type, data}` with a type the protocol declares. */
export function isEnvelope(x: unknown): x is { type: MessageType; data: unknown } {
  return !!x && typeof x === 'object' && typeof (x as { type?: unknown }).type === 'string' && Object.hasOwn(MESSAGES, (x as { type: string }).type);
}

/** An error whose message is meant for the person using the extension. */
export class UserFacingError extends Error {
  constructor(
    message: string,
    readonly kind = 'error',
  ) {
    super(message);
  }
}

function fail(message: string, kind: string): Reply<never> {
  return { ok: false, error: { message, kind } };
}

/**
 * A `runtime.onMessage` listener. Messages that are not ours (events the background itself
 * broadcasts, other shapes) get `undefined`, so the browser does not wait for an answer.
 */
export function createMessageListener(handlers: Handlers, self: () => ExtensionIdentity, log: (msg: string) => void = () => {}) {
  return (message: unknown, sender: Sender): Promise<Reply<unknown>> | undefined => {
    if (!isEnvelope(message)) return undefined;
    const type = message.type as MessageType;
    const rule = MESSAGES[type];
    const kind = classifySender(sender, self());
    if (!kind || !rule.from.includes(kind)) {
      log(`refused ${type} from ${sender.url ?? sender.id ?? 'unknown sender'}`);
      return Promise.resolve(fail(`The message "${type}" is not accepted from this sender.`, 'forbidden'));
    }
    const problem = check(rule.data, message.data ?? null, 'data');
    if (problem) return Promise.resolve(fail(`Invalid "${type}" message: ${problem}.`, 'invalid'));
    const handler = handlers[type] as (data: unknown, sender: Sender) => unknown;
    return Promise.resolve()
      .then(() => handler(message.data ?? null, sender))
      .then(
        (value): Reply<unknown> => ({ ok: true, value: value ?? null }),
        (err: unknown): Reply<unknown> => {
          const e = err as { message?: string; kind?: string };
          return fail(e?.message || 'Something went wrong in Tidemark.', e?.kind ?? 'error');
        },
      );
  };
}
