import path from 'node:path';
import { parseArgs, type ParseArgsConfig } from 'node:util';

/** A failure the user caused: printed as its message alone, with a non-zero exit. */
export class CliError extends Error {
  constructor(message: string, readonly exitCode = 2) {
    super(message);
  }
}

type Options = NonNullable<ParseArgsConfig['options']>;

type CommonOptions = { data: { type: 'string' }; database: { type: 'string' } };

/**
 * Parses flags strictly: unknown flags are errors that name the flag. Every command takes
 * `--data DIR` (SQLite and files) and `--database postgres://...` (PostgreSQL instead of SQLite).
 */
export function parseFlags<O extends Options>(args: string[], options: O): ReturnType<typeof parseArgs<{ options: O & CommonOptions; strict: true; allowPositionals: false }>>['values'] {
  try {
    return parseArgs({ args, options: { data: { type: 'string' }, database: { type: 'string' }, ...options }, strict: true, allowPositionals: false }).values;
  } catch (err) {
    throw new CliError((err as Error).message);
  }
}

export function dataDirOf(flags: { data?: unknown }): string {
  return path.resolve(typeof flags.data === 'string' ? flags.data : process.env.TIDEMARK_DATA ?? 'data');
}

/** The PostgreSQL URL of `--database` or TIDEMARK_DATABASE_URL, or undefined for SQLite under `--data`. */
export function databaseUrlOf(flags: { database?: unknown }): string | undefined {
  const value = typeof flags.database === 'string' ? flags.database : process.env.TIDEMARK_DATABASE_URL;
  return value?.trim() || undefined;
}

export function required(flags: Record<string, unknown>, name: string): string {
  const value = flags[name];
  if (typeof value !== 'string' || !value.trim()) throw new CliError(`--${name} is required.`);
  return value;
}

/** Prints one JSON document on stdout: the only output of data commands, so scripts can parse it. */
export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value)}\n`);
}
