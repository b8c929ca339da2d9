import fs from 'node:fs/promises';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import nodemailer from 'nodemailer';
import type { Mailer, MailMessage, MailReceipt } from './mailer.js';
import { DEFAULT_MAIL_FROM } from './settings.js';

/**
 * The development mailer: every message is composed as it would be sent and written to `dir` as an
 * .eml file (open it with any mail program), instead of leaving the machine.
 */
export function createOutboxMailer(dir: string, from = DEFAULT_MAIL_FROM): Mailer {
  const transport = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: 'unix' });
  let seq = 0;
  return {
    via: 'outbox',
    async send(message: MailMessage): Promise<MailReceipt> {
      const info = await transport.sendMail({ from, ...message });
      await fs.mkdir(dir, { recursive: true });
      const stamp = new Date().toISOString().replace(/[:.]/g, '-');
      // Names sort in the order the messages were written.
      const file = path.join(dir, `${stamp}-${String(++seq).padStart(6, '0')}-${randomBytes(3).toString('hex')}.eml`);
      await fs.writeFile(file, info.message as Buffer, { flag: 'wx' });
      return { via: 'outbox', messageId: info.messageId, file };
    },
    async close() {},
  };
}
