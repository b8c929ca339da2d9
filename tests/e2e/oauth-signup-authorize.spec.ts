// In Chromium, through the real pages: sign up, register an app, authorize it, and use the token.
import { execFile, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '@playwright/test';

const run = promisify(execFile);
const CLI = path.resolve('server/cli.ts');

let dataDir: string;
let server: ChildProcess;
let origin: string;
let receiver: http.Server;
let receiverOrigin: string;
const received: URL[] = [];

/** Starts the real service (`serve --port 0`) and reads the address it prints. */
async function startService(): Promise<void> {
  server = spawn(process.execPath, ['--import', 'tsx', CLI, 'serve', '--port', '0', '--data', dataDir], {
    env: { ...process.env, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  origin = await new Promise<string>((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`server did not start: ${out}`)), 30_000);
    server.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /listening on (http:\/\/[\d.]+:\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    server.on('exit', (code) => reject(new Error(`server exited with ${code}: ${out}`)));
  });
}

test.beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-e2e-oauth-'));
  await startService();
  // The application's redirect URL: a tiny receiver on loopback that records what it is sent.
  receiver = http.createServer((req, res) => {
    received.push(new URL(req.url!, receiverOrigin));
    res.writeHead(200, { 'content-type': 'text/plain' });
    res.end('redirect received');
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  receiverOrigin = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
});

test.afterAll(async () => {
  server?.kill('SIGTERM');
  await new Promise((resolve) => receiver?.close(resolve));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

test('a new user signs up, authorizes an app, and the app calls the API with its token', async ({ page }) => {
  // Sign up through the real page.
  await page.goto(`${origin}/signup`);
  await page.getByLabel('Name').fill('Playwright Person');
  await page.getByLabel('Email').fill('pw@example.test');
  await page.getByLabel('Password').fill('playwright-password');
  await page.getByRole('button', { name: 'Sign up' }).click();
  await expect(page).toHaveURL(`${origin}/account`);
  await expect(page.getByRole('heading', { name: 'Your account' })).toBeVisible();

  // A developer registers the app from the command line.
  const redirectUri = `${receiverOrigin}/callback`;
  await run(process.execPath, ['--import', 'tsx', CLI, 'user:create', '--email', 'pw-dev@example.test', '--password', 'developer-pass', '--data', dataDir]);
  const created = await run(process.execPath, [
    '--import', 'tsx', CLI, 'app:create', '--email', 'pw-dev@example.test', '--name', 'Receiver App', '--redirect', redirectUri, '--data', dataDir,
  ]);
  const { client_id, client_secret } = JSON.parse(created.stdout);

  // The app sends the user to authorize; the consent page names it.
  const state = 'pw-state-1';
  await page.goto(`${origin}/oauth/authorize?client_id=${client_id}&redirect_uri=${encodeURIComponent(redirectUri)}&state=${state}`);
  await expect(page.getByRole('heading', { name: /Allow Receiver App to use your Tidemark account\?/ })).toBeVisible();
  await expect(page.getByText('pw@example.test')).toBeVisible();
  await page.getByRole('button', { name: 'Allow' }).click();

  // The browser lands on the app's redirect URL with a code and the state.
  await expect(page.getByText('redirect received')).toBeVisible();
  const landed = new URL(page.url());
  expect(landed.origin + landed.pathname).toBe(redirectUri);
  expect(landed.searchParams.get('state')).toBe(state);
  const code = landed.searchParams.get('code');
  expect(code).toBeTruthy();
  expect(received.find((u) => u.pathname === '/callback')?.searchParams.get('code')).toBe(code);

  // The app exchanges the code and calls the API.
  const tokenRes = await fetch(`${origin}/oauth/access_token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'authorization_code', code, client_id, client_secret, redirect_uri: redirectUri }),
  });
  expect(tokenRes.status).toBe(200);
  const token = await tokenRes.json();
  expect(token.token_type).toBe('Bearer');
  expect(token.expires_in).toBe(1209599);
  const me = await fetch(`${origin}/rest/v1/user`, { headers: { authorization: `Bearer ${token.access_token}` } });
  expect(me.status).toBe(200);
  const body = await me.json();
  expect(body.user).toMatchObject({ email: 'pw@example.test', fullName: 'Playwright Person' });

  // The user sees the app under "Apps you have authorized".
  await page.goto(`${origin}/apps`);
  await expect(page.getByRole('cell', { name: 'Receiver App' })).toBeVisible();
});
