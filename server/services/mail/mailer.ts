// What a mailer is, apart from how it delivers: the outbox and SMTP mailers implement it, the
// invitation builds its message, and index.ts picks one from the config.

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
