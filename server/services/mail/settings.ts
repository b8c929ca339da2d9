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

/** An on/off variable; a value that is neither stops the start (a typo must not turn TLS off unseen). */
function flag(env: NodeJS.ProcessEnv, name: string): boolean | undefined {
  const value = env[name];
  if (value === undefined || value === '') return undefined;
  if (/^(1|true|yes|on)$/i.test(value.trim())) return true;
  if (/^(0|false|no|off)$/i.test(value.trim())) return false;
  throw new Error(`${name} must be true or false, got "${value}".`);
}

/**
 * SMTP settings from the environment, or undefined when TIDEMARK_SMTP_HOST is not set (then mail
 * goes to the outbox folder). TIDEMARK_SMTP_PORT defaults to 465 with TIDEMARK_SMTP_SECURE=true,
 * else 587; TIDEMARK_SMTP_SECURE defaults to true on port 465.
 */
export function smtpFromEnv(env: NodeJS.ProcessEnv): SmtpSettings | undefined {
  const host = env.TIDEMARK_SMTP_HOST?.trim();
  if (!host) return undefined;
  const secureFlag = flag(env, 'TIDEMARK_SMTP_SECURE');
  const port = env.TIDEMARK_SMTP_PORT ? Number(env.TIDEMARK_SMTP_PORT) : secureFlag ? 465 : 587;
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`TIDEMARK_SMTP_PORT must be a port number from 1 to 65535, got "${env.TIDEMARK_SMTP_PORT}".`);
  }
  return {
    host,
    port,
    secure: secureFlag ?? port === 465,
    requireTLS: flag(env, 'TIDEMARK_SMTP_REQUIRE_TLS'),
    user: env.TIDEMARK_SMTP_USER || undefined,
    pass: env.TIDEMARK_SMTP_PASS || undefined,
    from: env.TIDEMARK_MAIL_FROM || DEFAULT_MAIL_FROM,
  };
}
