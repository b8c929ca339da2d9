import type { ServerConfig } from '../../config.js';

/** Outbound mail (sharing invitations). */
export interface Mailer {
  send(message: { to: string; subject: string; text: string; html?: string }): Promise<void>;
  close(): Promise<void>;
}

export function createMailer(_config: ServerConfig): Mailer {
  return {
    async send() {
      throw new Error('Mail is not set up yet.');
    },
    async close() {},
  };
}
