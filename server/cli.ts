// Command-line entry: `npm run server -- <command> [flags]`. Each command is one file in
// cli/commands/, named after the command with ':' as '-' (user:create -> user-create.ts;
// migrate-data -> migrate-data.ts).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { CliError } from './cli/args.js';

const SELF = fileURLToPath(import.meta.url);
const COMMANDS_DIR = path.join(path.dirname(SELF), 'cli', 'commands');
/** `.ts` when run from the sources (tsx), `.js` when run as a bundle (the tests' tests/helpers/cli-bundle.ts). */
const EXT = path.extname(SELF);

/** Commands whose name itself has a hyphen. */
const HYPHENATED = new Set(['migrate-data']);

function available(): string[] {
  return fs
    .readdirSync(COMMANDS_DIR)
    .filter((f) => f.endsWith(EXT) && !f.endsWith(`.test${EXT}`))
    .map((f) => f.slice(0, -EXT.length))
    .map((f) => (HYPHENATED.has(f) ? f : f.replace('-', ':')))
    .sort();
}

async function main(argv: string[]): Promise<void> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === 'help') {
    process.stdout.write(`Usage: npm run server -- <command> [flags]\nCommands: ${available().join(', ')}\n`);
    return;
  }
  const file = path.join(COMMANDS_DIR, `${name.replace(':', '-')}${EXT}`);
  if (!/^[a-z]+([:-][a-z]+)?$/.test(name) || !fs.existsSync(file)) {
    throw new CliError(`Unknown command "${name}". Commands: ${available().join(', ')}`);
  }
  const mod = (await import(pathToFileURL(file).href)) as { run(args: string[]): Promise<void> };
  await mod.run(rest);
}

main(process.argv.slice(2)).catch((err) => {
  process.stderr.write(`${err instanceof CliError ? err.message : (err as Error).stack ?? String(err)}\n`);
  process.exit(err instanceof CliError ? err.exitCode : 1);
});
