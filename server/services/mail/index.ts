import path from 'node:path';
import type { ServerConfig } from '../../config.js';
import { createOutboxMailer } from './outbox.js';
import { createSmtpMailer } from './smtp.js';

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** What happened to a message that was accepted for delivery. */
export interface MailReceipt {
  via: 'smtp' | 'outbox';
  messageId: string;
  /** The .eml file written (outbox only). */
  file?: string;
}

/**
 * Outbound mail (sharing invitations). `send` resolves once the mail server accepted the message
 * (or it was written to the outbox) and rejects with a readable error otherwise.
 */
export interface Mailer {
  readonly via: 'smtp' | 'outbox';
  send(message: MailMessage): Promise<MailReceipt>;
  close(): Promise<void>;
}

/** SMTP when the config has SMTP settings; else the outbox folder `<dataDir>/outbox/`. */
export function createMailer(config: ServerConfig): Mailer {
  if (config.smtp) return createSmtpMailer(config.smtp);
  return createOutboxMailer(path.join(config.dataDir, 'outbox'));
}
