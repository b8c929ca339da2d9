// The check of the whole run's server log (tests/setup/suite-log.ts) is only as good as what it
// records: this file makes sure a server started by the tests logs its requests as `serve` does, that
// the secrets a walk carries (token, password, session cookie, CSRF value, note, search word) are
// recorded, that none of them is in the log, and that a line holding one would be found.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startServer, type TestServer } from '../helpers/server.js';
import { findLeaks, readSuiteLog, SUITE_LOG_ENV } from '../helpers/suite-log.js';
import { WebClient } from '../helpers/web-client.js';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => s?.close());

it('logs every request and records the secrets it carried, none of which is in a log line', async () => {
  const dir = process.env[SUITE_LOG_ENV];
  expect(dir, 'the server lanes set up the run log (vitest.config.ts SERVER_LANE)').toBeTruthy();
  const password = 'Suite-Log-Pass-4k9w';
  const word = 'marmaladequasar';
  const note = `a private note on ${word} that stays out of logs`;
  const user = await s.createUser(undefined, { password });
  const browser = new WebClient(s.origin);
  expect((await browser.signIn(user.email, password)).status).toBe(303);
  const created = await s.api('POST', '/bookmark', { token: user.token, body: { link: 'https://suite-log.example/', title: 'Suite log', note } });
  expect(created.status).toBe(200);
  expect((await s.api('GET', `/bookmarks/0?search=${word}`, { token: user.token })).body.items).toHaveLength(1);

  // This server's part of the run's log: the one that recorded this user's token.
  const mine = readSuiteLog(dir!).filter((server) => server.secrets.some((x) => x.v === user.token));
  expect(mine).toHaveLength(1);
  const { lines, secrets } = mine[0]!;
  expect(lines.filter((l) => l.includes('"remoteAddress":"127.0.0.1"') && l.includes('/rest/v1/bookmarks/0?search=…')), 'the search is logged, its words hidden').toHaveLength(1);
  expect(lines.some((l) => /"msg":"request completed"/.test(l))).toBe(true);
  const recorded = new Map(secrets.map((x) => [x.v, x.from]));
  expect(recorded.get(user.token)).toMatch(/authorization/);
  expect(recorded.get(password)).toMatch(/POST \/signin body field password/);
  expect(recorded.get(note)).toMatch(/field note/);
  expect(recorded.get(word)).toMatch(/query search/);
  const session = [...browser.cookies.values()].find((v) => recorded.get(v)?.includes('set-cookie'));
  expect(session, 'the session cookie is recorded').toBeTruthy();

  expect(findLeaks(lines, secrets)).toEqual([]);
  // A line that held one would be found, within a message or as a field of its own.
  const planted = [JSON.stringify({ level: 30, msg: `token was ${user.token}!` }), JSON.stringify({ level: 40, req: { note } }), 'not json: ' + password];
  expect(findLeaks([...lines, ...planted], secrets).map((l) => l.secret).sort()).toEqual([note, password, user.token, word].sort()); // the note holds the search word
});
