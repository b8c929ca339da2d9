import nodemailer from 'nodemailer';
import type { Mailer, MailMessage, MailReceipt } from './mailer.js';
import type { SmtpSettings } from './settings.js';

const DEFAULT_TIMEOUT_MS = 10_000;

/** Why an SMTP send failed, in words an operator can act on. */
function describe(err: unknown, settings: SmtpSettings): string {
  const e = err as { code?: string; responseCode?: number; response?: string; message?: string };
  const where = `${settings.host}:${settings.port}`;
  // Socket errors come wrapped (code ESOCKET/ECONNECTION); the system error name is in the message.
  const text = `${e.code ?? ''} ${e.message ?? ''}`;
  if (/ECONNREFUSED/.test(text)) return `the mail server ${where} refused the connection`;
  if (/ETIMEDOUT|ETIMEOUT/.test(text)) return `the mail server ${where} did not answer in time`;
  if (/EDNS|ENOTFOUND|EAI_AGAIN/.test(text)) return `the mail server host ${settings.host} could not be resolved`;
  if (e.code === 'EAUTH') return `the mail server ${where} rejected the SMTP user name or password`;
  if (e.code === 'ETLS') return `TLS with the mail server ${where} failed`;
  if (e.responseCode) return `the mail server ${where} answered ${e.response ?? e.responseCode}`;
  return `sending through ${where} failed: ${e.message ?? String(err)}`;
}

/** Sends through an SMTP server with nodemailer (one connection per message). */
export function createSmtpMailer(settings: SmtpSettings): Mailer {
  const timeout = settings.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    requireTLS: settings.requireTLS ?? false,
    auth: settings.user ? { user: settings.user, pass: settings.pass ?? '' } : undefined,
    connectionTimeout: timeout,
    greetingTimeout: timeout,
    socketTimeout: timeout,
  });
  return {
    via: 'smtp',
    async send(message: MailMessage): Promise<MailReceipt> {
      try {
        const info = await transport.sendMail({ from: settings.from, ...message });
        return { via: 'smtp', messageId: info.messageId };
      } catch (err) {
        throw new Error(describe(err, settings), { cause: err });
      }
    },
    async close() {
      transport.close();
    },
  };
}
