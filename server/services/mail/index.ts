import path from 'node:path';
import type { ServerConfig } from '../../config.js';
import { createOutboxMailer } from './outbox.js';
import { createSmtpMailer } from './smtp.js';
import type { Mailer } from './mailer.js';

export type { Mailer } from './mailer.js';

/** SMTP when the config has SMTP settings; else the outbox folder `<dataDir>/outbox/`. */
export function createMailer(config: ServerConfig): Mailer {
  if (config.smtp) return createSmtpMailer(config.smtp);
  return createOutboxMailer(path.join(config.dataDir, 'outbox'));
}
