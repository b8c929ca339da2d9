// vitest globalSetup of both server lanes: a directory for the run's server log and the secrets its
// requests carried (tests/helpers/suite-log.ts), and, when the run ends, the check that no log line
// of the whole run holds any of them. A leak fails the run, naming the secret's kind, where it was
// seen, and the line; the directory is then kept for a look.
import fs from 'node:fs';
import path from 'node:path';
import { findLeaks, readSuiteLog, SUITE_LOG_ENV } from '../helpers/suite-log.js';

const ROOT = path.resolve(import.meta.dirname, '..', '..');

/**
 * Vitest reports an error thrown by a global teardown but still exits 0 when every test passed: the
 * failure is printed and set as the exit status of the run instead.
 */
function fail(message: string): void {
  process.stderr.write(`\nFAIL the server log check: ${message}\n`);
  process.exitCode = 1;
}

export default function setup(): () => void {
  const dir = path.join(ROOT, '.tmp', 'suite-log', `run-${process.pid}`);
  fs.rmSync(dir, { recursive: true, force: true });
  fs.mkdirSync(dir, { recursive: true });
  // Inherited by the worker processes, which start after this.
  process.env[SUITE_LOG_ENV] = dir;
  return () => {
    const servers = readSuiteLog(dir);
    const lines = servers.reduce((n, server) => n + server.lines.length, 0);
    const secrets = servers.reduce((n, server) => n + server.secrets.length, 0);
    if (lines === 0) {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    }
    // Requests were logged but nothing recorded: the recording is broken, and the check would pass unseen.
    if (secrets === 0) return fail(`The server suite logged ${lines} lines but recorded no secret to look for: tests/helpers/suite-log.ts is broken.`);
    const leaks = servers.flatMap((server) => findLeaks(server.lines, server.secrets));
    if (leaks.length > 0) {
      const shown = leaks.slice(0, 10).map((l) => `- ${JSON.stringify(l.secret.slice(0, 40))} (${l.from}) in: ${l.line.slice(0, 400)}`);
      return fail(`${leaks.length} log line(s) of the server suite hold a secret (logs kept in ${dir}):\n${shown.join('\n')}`);
    }
    process.stdout.write(`Server log of the run: ${lines} lines from ${servers.length} servers, none holding any of the ${secrets} secrets their requests carried.\n`);
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
