// The compiled server (dist/, from `npm run build`) run with production dependencies only, as
// docs/operations.md tells an operator to: its command line creates an account and a token, `serve`
// is configured by TIDEMARK_* variables (a flag winning over one), and a short walk (web sign-in,
// create, list, search, import a small file through the conversion worker) works. Everything the
// processes write is then searched for the secrets the walk used: no password, token, cookie,
// note or search text may appear in a log line. Settings read from the environment, and refused.
import { execFile, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { prepareCompiledServer } from '../helpers/compiled-server.js';
import { TEST_ENV } from '../../scripts/test-env.js';

let appDir: string;
let dataDir: string;
let cli: string;
let serve: ChildProcess | undefined;
/** Everything `serve` wrote, on stdout and stderr. */
let log = '';

/** Only what a service manager would give the process: no variable of the test run leaks in. */
function env(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  return { PATH: process.env.PATH, HOME: os.homedir(), ...TEST_ENV, ...extra };
}

function runCompiled(args: string[], extra: Record<string, string> = {}) {
  return spawnSync(process.execPath, [cli, ...args], { cwd: appDir, encoding: 'utf8', env: env(extra), timeout: 30_000 });
}

/** runCompiled without blocking: for several commands at once. */
function runCompiledAsync(args: string[], extra: Record<string, string> = {}): Promise<{ status: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [cli, ...args], { cwd: appDir, encoding: 'utf8', env: env(extra), timeout: 30_000 }, (error, stdout, stderr) => {
      resolve({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr });
    });
  });
}

beforeAll(() => {
  appDir = prepareCompiledServer();
  cli = path.join(appDir, 'dist', 'server', 'cli.js');
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-compiled-'));
}, 300_000);

afterAll(() => {
  serve?.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
});

describe('the compiled server with production dependencies only', () => {
  const password = 'Compiled-Pass-7f3a9c!';
  const note = 'secret-note-text-q8z2';
  const searchWord = 'xylophonequartz';
  let origin = '';
  let token = '';

  it('has none of the development tools installed', () => {
    for (const tool of ['tsx', 'typescript', 'wxt', 'vitest', 'esbuild']) expect(fs.existsSync(path.join(appDir, 'node_modules', tool)), tool).toBe(false);
  });

  it('runs its command line: creates an account and a token', () => {
    const user = runCompiled(['user:create', '--email', 'op@example.com', '--password', password, '--data', dataDir]);
    expect(user.status, user.stderr).toBe(0);
    const made = runCompiled(['token:create', '--email', 'op@example.com'], { TIDEMARK_DATA: dataDir });
    expect(made.status, made.stderr).toBe(0);
    token = (JSON.parse(made.stdout) as { access_token: string }).access_token;
    expect(token).toMatch(/\S{20,}/);
  });

  it('serves, configured by TIDEMARK_* variables, a flag winning over its variable', async () => {
    // The web app as `npm run build` puts it beside the compiled server (a stand-in page: the walk
    // checks where it is found, not the app).
    fs.mkdirSync(path.join(appDir, 'dist', 'web'), { recursive: true });
    fs.writeFileSync(path.join(appDir, 'dist', 'web', 'index.html'), '<!doctype html><title>Tidemark web app stand-in</title>');
    // TIDEMARK_PORT=1 is privileged: the start would fail if the flag did not win. Started in another
    // directory than its own, as a service manager may: nothing it reads depends on the working directory.
    serve = spawn(process.execPath, [cli, 'serve', '--port', '0'], {
      cwd: os.tmpdir(),
      env: env({ TIDEMARK_PORT: '1', TIDEMARK_DATA: dataDir, TIDEMARK_LOG_FORMAT: 'json', TIDEMARK_LOG_LEVEL: 'info', TIDEMARK_PUBLIC_URL: 'http://tidemark.test' }),
    });
    const started = new Promise<string>((resolve, reject) => {
      const onData = (chunk: Buffer) => {
        log += chunk.toString();
        const m = /listening on (http:\/\/[\d.:]+)\/rest\/v1/.exec(log);
        if (m) resolve(m[1]!);
      };
      serve!.stdout!.on('data', onData);
      serve!.stderr!.on('data', onData);
      serve!.on('exit', (code) => reject(new Error(`serve exited with ${code}:\n${log}`)));
    });
    origin = await started;
    const health = await fetch(`${origin}/health`);
    expect(health.status).toBe(200);
    const ready = await fetch(`${origin}/ready`);
    expect(await ready.json()).toMatchObject({ result: true, status: 'ready' });
  }, 60_000);

  it('answers a short walk: web sign-in, create, list, search, import', async () => {
    const api = async (method: string, p: string, body?: unknown) => {
      const res = await fetch(`${origin}/rest/v1${p}`, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      return { status: res.status, body: (await res.json()) as any };
    };
    // Sign in on the web pages: the password in a form, the session in a cookie.
    const page = await fetch(`${origin}/signin`);
    const visitor = page.headers.get('set-cookie')!.split(';')[0]!;
    const csrf = /name="_csrf" value="([^"]+)"/.exec(await page.text())![1]!;
    const signin = await fetch(`${origin}/signin`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'content-type': 'application/x-www-form-urlencoded', cookie: visitor },
      body: new URLSearchParams({ _csrf: csrf, email: 'op@example.com', password }).toString(),
    });
    expect(signin.status).toBe(303);
    const session = signin.headers.get('set-cookie')!.split(';')[0]!;
    expect((await fetch(`${origin}/account`, { headers: { cookie: `${visitor}; ${session}` } })).status).toBe(200);
    const webApp = await fetch(`${origin}/`, { headers: { cookie: `${visitor}; ${session}` } });
    expect(await webApp.text()).toContain('Tidemark web app stand-in');

    const created = await api('POST', '/bookmark', { link: 'https://compiled.example/page', title: `About ${searchWord}`, note });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const list = await api('GET', '/bookmarks/0');
    expect(list.body.items.map((b: { link: string }) => b.link)).toEqual(['https://compiled.example/page']);
    const found = await api('GET', `/bookmarks/0?search=${searchWord}`);
    expect(found.body.items).toHaveLength(1);

    const form = new FormData();
    const html = '<!DOCTYPE NETSCAPE-Bookmark-file-1><H1>Bookmarks</H1><DL><p><DT><A HREF="https://imported.example/">Imported</A></DL>';
    form.append('import', new Blob([html], { type: 'text/html' }), 'bookmarks.html');
    const imported = await fetch(`${origin}/rest/v1/import/file`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    const converted = (await imported.json()) as any;
    expect(imported.status, JSON.stringify(converted)).toBe(200);
    expect(converted.items[0].bookmarks[0].link).toBe('https://imported.example/');

    // The log has one JSON line per request (probes aside), and none of the walk's secrets.
    serve!.kill('SIGTERM');
    await new Promise((resolve) => serve!.once('exit', resolve));
    serve = undefined;
    const requests = log.split('\n').filter((line) => line.includes('"request completed"'));
    expect(requests.length).toBe(8); // the walk's eight requests; the probes are not logged
    for (const secret of [password, token, note, searchWord, session.split('=')[1]!, visitor.split('=')[1]!, csrf]) {
      expect(log.includes(secret), `the log shows ${secret}`).toBe(false);
    }
    expect(log).not.toMatch(/authorization|cookie/i);
    // Nothing went wrong on the way, the worker threads (WAL checkpoints, conversion) included: a worker
    // that cannot load its code says so in a warning. The one expected is the tests' cheap password hashing.
    const warnings = log
      .split('\n')
      .filter((line) => line.startsWith('{'))
      .map((line) => JSON.parse(line) as { level: number; msg: string; passwordHashCost?: number })
      .filter((entry) => entry.level >= 40 && entry.passwordHashCost === undefined);
    expect(warnings).toEqual([]);
  }, 60_000);

  it('runs every other command: import, backup, restore, app:create, invite:resend, migrate-data', () => {
    const file = path.join(dataDir, 'export.html');
    fs.writeFileSync(file, '<!DOCTYPE NETSCAPE-Bookmark-file-1><DL><p><DT><H3>From the CLI</H3><DL><p><DT><A HREF="https://cli.example/">CLI</A></DL></DL>');
    const imported = runCompiled(['import', '--email', 'op@example.com', '--file', file, '--data', dataDir]);
    expect(imported.status, imported.stderr).toBe(0);
    expect(JSON.parse(imported.stdout)).toMatchObject({ created: 1 });
    // Outside the data directory: a backup refuses to contain itself.
    const archive = `${dataDir}-backup.tar`;
    const backup = runCompiled(['backup', '--out', archive, '--data', dataDir]);
    expect(backup.status, backup.stderr).toBe(0);
    expect(fs.statSync(archive).size).toBeGreaterThan(0);
    const restoredDir = `${dataDir}-restored`;
    const restored = runCompiled(['restore', '--from', archive, '--data', restoredDir]);
    fs.rmSync(archive);
    expect(restored.status, restored.stderr).toBe(0);
    const app = runCompiled(['app:create', '--email', 'op@example.com', '--name', 'Reader', '--redirect', 'https://reader.example/cb'], { TIDEMARK_DATA: restoredDir });
    fs.rmSync(restoredDir, { recursive: true, force: true });
    expect(app.status, app.stderr).toBe(0);
    expect(JSON.parse(app.stdout)).toMatchObject({ client_id: expect.any(String) });
    const resend = runCompiled(['invite:resend', '--all', '--data', dataDir]);
    expect(resend.status, resend.stderr).toBe(0);
    // PostgreSQL's driver loads and the command says where it could not connect (port 1: nobody listens).
    const migrate = runCompiled(['migrate-data', '--from', dataDir, '--to', 'postgres://tidemark@127.0.0.1:1/tidemark']);
    expect(migrate.status).not.toBe(0);
    expect(migrate.stderr).toMatch(/127\.0\.0\.1:1/);
    expect(migrate.stderr).not.toMatch(/ERR_MODULE_NOT_FOUND|Cannot find (module|package)/);
  });
});

describe('serve settings from the environment', () => {
  it('lists every flag with its variable in --help', () => {
    const help = runCompiled(['serve', '--help']);
    expect(help.status).toBe(0);
    for (const [flag, variable] of [
      ['--port', 'TIDEMARK_PORT'],
      ['--data', 'TIDEMARK_DATA'],
      ['--database-url', 'TIDEMARK_DATABASE_URL'],
      ['--public-url', 'TIDEMARK_PUBLIC_URL'],
      ['--smtp-url', 'TIDEMARK_SMTP_URL'],
      ['--trust-proxy', 'TIDEMARK_TRUST_PROXY'],
      ['--log-format', 'TIDEMARK_LOG_FORMAT'],
    ]) {
      expect(help.stdout).toMatch(new RegExp(`^  ${flag}\\b.*${variable}`, 'm'));
    }
  });

  it('refuses an unknown TIDEMARK_* variable or a malformed value, naming it', async () => {
    const cases: [Record<string, string>, RegExp][] = [
      [{ TIDEMARK_PROT: '8080' }, /^Unknown environment variable TIDEMARK_PROT\. Run `serve --help`/],
      [{ TIDEMARK_PORT: 'eighty' }, /^TIDEMARK_PORT must be a number from 0 to 65535, got "eighty"\./],
      [{ TIDEMARK_TRUST_PROXY: 'maybe' }, /^TIDEMARK_TRUST_PROXY must be true or false, got "maybe"\./],
      [{ TIDEMARK_PUBLIC_URL: 'tidemark.example.com' }, /^TIDEMARK_PUBLIC_URL must be an http:\/\/ or https:\/\/ URL/],
      [{ TIDEMARK_LOG_FORMAT: 'xml' }, /^TIDEMARK_LOG_FORMAT must be one of json, pretty, got "xml"\./],
      // A URL that may hold a password is named, never echoed.
      [{ TIDEMARK_SMTP_URL: 'mail://u:hunter2@x' }, /^TIDEMARK_SMTP_URL must be a URL such as smtps:\/\/[^"]*\.$/],
      [{ TIDEMARK_DATABASE_URL: 'mysql://u:hunter2@x/db' }, /^TIDEMARK_DATABASE_URL must be a PostgreSQL URL[^"]*\.$/],
      // Variables without a flag are read as strictly, and refused as plainly (no stack trace).
      [{ TIDEMARK_SMTP_HOST: 'mail.example.com', TIDEMARK_SMTP_SECURE: 'maybe' }, /^TIDEMARK_SMTP_SECURE must be true or false, got "maybe"\.$/],
      [{ TIDEMARK_PASSWORD_HASH_COST: '1000' }, /^TIDEMARK_PASSWORD_HASH_COST must be a power of two from 1024 to 32768 .*got "1000"\.$/],
      [{ TIDEMARK_GOOGLE_CLIENT_ID: 'id-only' }, /^TIDEMARK_GOOGLE_CLIENT_ID and TIDEMARK_GOOGLE_CLIENT_SECRET go together: set both, or neither\.$/],
    ];
    // All at once (each is a process that stops at once): the machine's cores, not one after another.
    // No --port: a flag would win over TIDEMARK_PORT, and the server would start.
    const results = await Promise.all(cases.map(([vars]) => runCompiledAsync(['serve', '--data', dataDir], vars)));
    for (const [i, [vars, message]] of cases.entries()) {
      const res = results[i]!;
      expect(res.status, JSON.stringify(vars)).toBe(2);
      expect(res.stderr.trim()).toMatch(message);
      expect(res.stderr.trim().split('\n'), 'one line, no stack trace').toHaveLength(1);
      expect(res.stdout).not.toMatch(/listening/);
    }
    // The flag's own value is checked the same way, named as a flag.
    const flag = runCompiled(['serve', '--port', '99999', '--data', dataDir]);
    expect(flag.stderr.trim()).toBe('--port must be a number from 0 to 65535, got "99999".');
  });
});
