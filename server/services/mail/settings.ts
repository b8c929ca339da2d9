/** Outbound mail server settings (from config or the TIDEMARK_SMTP_* environment variables). */
export interface SmtpSettings {
  host: string;
  port: number;
  /** true: TLS from the first byte (usually port 465). false: plain, upgraded with STARTTLS when offered. */
  secure: boolean;
  /** Refuse to send unless the server upgrades to TLS (STARTTLS); for port 587 relays. */
  requireTLS?: boolean;
  user?: string;
  pass?: string;
  /** The From address, e.g. `Tidemark <no-reply@example.com>`. */
  from: string;
  /** Give up on an unresponsive mail server after this long (connect, greeting, each command). */
  timeoutMs?: number;
}

export const DEFAULT_MAIL_FROM = 'Tidemark <no-reply@tidemark.invalid>';

function flag(value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  return /^(1|true|yes|on)$/i.test(value.trim());
}

/**
 * SMTP settings from the environment, or undefined when TIDEMARK_SMTP_HOST is not set (then mail
 * goes to the outbox folder). TIDEMARK_SMTP_PORT defaults to 465 with TIDEMARK_SMTP_SECURE=true,
 * else 587; TIDEMARK_SMTP_SECURE defaults to true on port 465.
 */
export function smtpFromEnv(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  const host = env.TIDEMARK_SMTP_HOST?.trim();
  if (!host) return undefined;
  const secureFlag = flag(env.TIDEMARK_SMTP_SECURE);
  const port = env.TIDEMARK_SMTP_PORT ? Number(env.TIDEMARK_SMTP_PORT) : secureFlag ? 465 : 587;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`TIDEMARK_SMTP_PORT must be a port number from 1 to 65535, got "${env.TIDEMARK_SMTP_PORT}".`);
  }
  return {
    host,
    port,
    secure: secureFlag ?? port === 465,
    requireTLS: flag(env.TIDEMARK_SMTP_REQUIRE_TLS),
    user: env.TIDEMARK_SMTP_USER || undefined,
    pass: env.TIDEMARK_SMTP_PASS || undefined,
    from: env.TIDEMARK_MAIL_FROM || DEFAULT_MAIL_FROM,
  };
}
