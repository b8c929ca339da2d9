import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { processesOnTestBackend } from '../helpers/cli-database.js';
import { runCli, runCliThroughTsx, startServe } from '../helpers/process.js';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-cli-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));
processesOnTestBackend();

const PROCESSES_TIMEOUT = 90_000;

describe('command line', () => {
  it('user:create prints only the user as JSON, and refuses a duplicate email', () => {
    const first = runCli(['user:create', '--email', 'cli@example.test', '--password', 'longenough', '--name', 'Cli', '--pro', '--data', dataDir]);
    expect(first.status).toBe(0);
    const user = JSON.parse(first.stdout);
    expect(user).toMatchObject({ email: 'cli@example.test', fullName: 'Cli', pro: true });
    expect(typeof user._id).toBe('number');
    const dup = runCli(['user:create', '--email', 'CLI@example.test', '--password', 'longenough', '--data', dataDir]);
    expect(dup.status).not.toBe(0);
    expect(dup.stdout).toBe('');
    expect(dup.stderr).toMatch(/already exists/);
  });

  it('`npm run server` (tsx on the TypeScript sources) lists the commands and runs one; the tests\' bundle lists the same', () => {
    const help = runCliThroughTsx(['--help']);
    expect(help.status).toBe(0);
    const commands = 'app:create, backup, import, invite:resend, migrate-data, restore, serve, token:create, user:create';
    expect(help.stdout).toContain(`Commands: ${commands}\n`);
    expect(runCli(['--help']).stdout).toBe(help.stdout);
    const nobody = runCliThroughTsx(['token:create', '--email', 'nobody@example.test', '--data', dataDir]);
    expect(nobody.status).not.toBe(0);
    expect(nobody.stderr).toMatch(/No account/);
  });

  it('rejects missing flags, unknown flags and unknown commands with a clear message', () => {
    expect(runCli(['user:create', '--email', 'x@example.test', '--data', dataDir]).stderr).toMatch(/--password is required/);
    expect(runCli(['user:create', '--bogus', '--data', dataDir]).stderr).toMatch(/bogus/);
    expect(runCli(['nope']).stderr).toMatch(/Unknown command "nope"/);
    expect(runCli(['token:create', '--email', 'nobody@example.test', '--data', dataDir]).stderr).toMatch(/No account/);
  });

  // These two start `serve` and run the command line beside it (three or four processes), which can
  // take over 30 s when every core is busy.
  it('token:create makes a token that works against a running server on the same data directory', { timeout: PROCESSES_TIMEOUT }, async () => {
    const serve = await startServe(['--port', '0', '--data', dataDir]);
    try {
      // Created while serve runs: both processes share the database.
      const made = runCli(['user:create', '--email', 'live@example.test', '--password', 'longenough', '--data', dataDir]);
      expect(made.status).toBe(0);
      const tok = runCli(['token:create', '--email', 'live@example.test', '--data', dataDir]);
      expect(tok.status).toBe(0);
      const { access_token } = JSON.parse(tok.stdout);
      expect(Object.keys(JSON.parse(tok.stdout))).toEqual(['access_token']);
      const res = await fetch(`${serve.url}/user`, { headers: { authorization: `Bearer ${access_token}` } });
      expect(res.status).toBe(200);
      expect((await res.json()).user.email).toBe('live@example.test');
    } finally {
      serve.child.kill('SIGTERM');
      expect(await serve.exited).toBe(0);
    }
  });

  it('serve shuts down cleanly on SIGTERM, finishing the request in flight', { timeout: PROCESSES_TIMEOUT }, async () => {
    // A page that takes 800 ms to answer keeps a /import/url/parse request in flight while SIGTERM arrives.
    const slow = http.createServer((_req, res) => {
      setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/html' });
        res.end('<html><head><title>Slow but sure</title></head><body><p>hello</p></body></html>');
      }, 800);
    });
    await new Promise<void>((resolve) => slow.listen(0, '127.0.0.1', resolve));
    const pageUrl = `http://127.0.0.1:${(slow.address() as { port: number }).port}/page`;
    const serve = await startServe(['--port', '0', '--data', dataDir, '--allow-private-network']);
    try {
      runCli(['user:create', '--email', 'sigterm@example.test', '--password', 'longenough', '--data', dataDir]);
      const { access_token } = JSON.parse(runCli(['token:create', '--email', 'sigterm@example.test', '--data', dataDir]).stdout);
      const inflight = fetch(`${serve.url}/import/url/parse?url=${encodeURIComponent(pageUrl)}`, {
        headers: { authorization: `Bearer ${access_token}` },
      });
      await new Promise((r) => setTimeout(r, 300));
      serve.child.kill('SIGTERM');
      const res = await inflight;
      expect(res.status).toBe(200);
      expect((await res.json()).item.title).toBe('Slow but sure');
      expect(await serve.exited).toBe(0);
    } finally {
      slow.close();
    }
  });

  it('serve refuses a bad port', () => {
    const res = runCli(['serve', '--port', 'abc', '--data', dataDir]);
    expect(res.status).not.toBe(0);
    expect(res.stderr).toMatch(/--port/);
  });
});
