// Password hashes cost what production is meant to pay: scrypt N=2^15 unless TIDEMARK_PASSWORD_HASH_COST
// says otherwise. The test lanes set it to 2^10 (scripts/test-env.ts) because they make hundreds of
// accounts; this file unsets it and checks every way a password is hashed (web sign-up, a password
// change, `user:create`) stores N=32768, and that a mistyped setting is refused rather than ignored.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultConfig, passwordHashCostFromEnv } from '../../server/config.js';
import { DEFAULT_PASSWORD_HASH_COST, verifyPassword } from '../../server/services/passwords.js';
import { runCliAsync, startServe } from '../helpers/process.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { WebClient } from '../helpers/web-client.js';

const VARIABLE = 'TIDEMARK_PASSWORD_HASH_COST';

/** Runs `fn` with the variable unset, as on a production machine. */
async function unset<T>(fn: () => Promise<T> | T): Promise<T> {
  const saved = process.env[VARIABLE];
  delete process.env[VARIABLE];
  try {
    return await fn();
  } finally {
    if (saved !== undefined) process.env[VARIABLE] = saved;
  }
}

/** The N a stored `scrypt$N$r$p$salt$hash` was made with. */
const costOf = (hash: unknown) => Number(String(hash).split('$')[1]);

describe('the password hash cost', () => {
  let s: TestServer;
  beforeAll(async () => {
    s = await unset(() => startServer());
  });
  afterAll(async () => s?.close());

  it('is scrypt N=32768 when nothing is configured, and the test lanes run cheaper on purpose', async () => {
    expect(DEFAULT_PASSWORD_HASH_COST).toBe(32768);
    expect(s.config.passwordHashCost).toBe(32768);
    expect(await unset(() => defaultConfig().passwordHashCost)).toBe(32768);
    // What the other test files run with (and why they are allowed to): set by the lane, not by the server.
    expect(process.env[VARIABLE]).toBe('1024');
    expect(defaultConfig().passwordHashCost).toBe(1024);
  });

  it('a web sign-up and a password change store hashes made at the default cost, which verify', async () => {
    const browser = new WebClient(s.origin);
    await browser.get('/signup');
    const res = await browser.post('/signup', { name: 'Cost Check', email: 'cost@example.test', password: 'cost-password-1', next: '/account' });
    expect(res.status).toBe(303);
    const [signedUp] = await s.sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = ?', 'cost@example.test');
    expect(costOf(signedUp.password_hash)).toBe(32768);
    expect(await verifyPassword('cost-password-1', signedUp.password_hash)).toBe(true);

    const u = await s.createUser('cost-change@example.test');
    const changed = await s.api('PUT', '/user', { token: u.token, body: { newpassword: 'cost-password-2' } });
    expect(changed.status).toBe(200);
    const [after] = await s.sql<{ password_hash: string }>('SELECT password_hash FROM users WHERE email = ?', 'cost-change@example.test');
    expect(costOf(after.password_hash)).toBe(32768);
    expect(await verifyPassword('cost-password-2', after.password_hash)).toBe(true);
  });

  it('user:create hashes at the default cost when the variable is unset, and at the configured one when set', async () => {
    const atDefault = await runCliAsync(['user:create', '--email', 'cli-cost@example.test', '--password', 'cost-password-3', ...s.cliArgs], { [VARIABLE]: '' });
    expect(atDefault.status, atDefault.stderr).toBe(0);
    const configured = await runCliAsync(['user:create', '--email', 'cli-cheap@example.test', '--password', 'cost-password-4', ...s.cliArgs], { [VARIABLE]: '2048' });
    expect(configured.status, configured.stderr).toBe(0);
    // Whoever runs it with a lowered cost is told so; at the default nothing is said.
    expect(configured.stderr).toContain('TIDEMARK_PASSWORD_HASH_COST=2048 hashes new passwords at scrypt N=2048, 16 times cheaper to guess');
    expect(atDefault.stderr).not.toContain('TIDEMARK_PASSWORD_HASH_COST');
    const rows = await s.sql<{ email: string; password_hash: string }>(
      "SELECT email, password_hash FROM users WHERE email IN ('cli-cost@example.test', 'cli-cheap@example.test') ORDER BY email",
    );
    expect(rows.map((r) => [r.email, costOf(r.password_hash)])).toEqual([
      ['cli-cheap@example.test', 2048],
      ['cli-cost@example.test', 32768],
    ]);
  });

  it('a setting that is not a power of two from 1024 to 32768 is refused with what to set, by the server and by the CLI', async () => {
    for (const bad of ['1000', '512', '65536', 'cheap', '2048.5', '-1024']) {
      expect(() => passwordHashCostFromEnv({ [VARIABLE]: bad }), bad).toThrow(/TIDEMARK_PASSWORD_HASH_COST must be a power of two from 1024 to 32768/);
    }
    expect(passwordHashCostFromEnv({ [VARIABLE]: '4096' })).toBe(4096);
    const refused = await runCliAsync(['user:create', '--email', 'cli-bad@example.test', '--password', 'cost-password-5', ...s.cliArgs], { [VARIABLE]: '1000' });
    expect(refused.status).not.toBe(0);
    expect(refused.stderr).toMatch(/TIDEMARK_PASSWORD_HASH_COST must be a power of two/);
    expect(await s.sql('SELECT id FROM users WHERE email = ?', 'cli-bad@example.test')).toEqual([]);
  });

  it('serve warns its operator when new passwords would be hashed below the default cost, and is silent at the default', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tidemark-cost-serve-'));
    try {
      for (const [value, warned] of [['1024', true], ['', false]] as const) {
        const served = await startServe(['--port', '0', '--data', dataDir], { [VARIABLE]: value });
        try {
          // The warning comes before the "listening" line, so the output read so far holds it.
          if (warned) expect(served.output()).toContain('Warning: TIDEMARK_PASSWORD_HASH_COST=1024 hashes new passwords at scrypt N=1024, 32 times cheaper');
          else expect(served.output()).not.toContain('TIDEMARK_PASSWORD_HASH_COST');
          expect(served.output()).toContain('listening on');
        } finally {
          served.child.kill('SIGTERM');
          await served.exited;
        }
      }
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
