// `serve --log-format pretty`: a terminal gets readable lines, and every line of the process is one,
// the background jobs' included (they write through the app's logger, not a JSON logger of their own).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { defaultConfig } from '../../server/config.js';
import { startServer, type TestServer } from '../helpers/server.js';
import { until } from '../helpers/until.js';

let s: TestServer;
let written = '';

beforeAll(async () => {
  s = await startServer({
    logFormat: 'pretty',
    logLevel: 'info',
    logDestination: { write: (text: string) => (written += text) },
    jobs: { ...defaultConfig().jobs, pollMs: 20 },
  });
});
afterAll(async () => s?.close());

it('writes requests and job outcomes as readable lines, none of them JSON', async () => {
  const { token } = await s.createUser();
  expect((await s.api('GET', '/user', { token })).status).toBe(200);
  // A page on a private address: the page job refuses it (no --allow-private-network) and logs that.
  const made = await s.api('POST', '/bookmark', { token, body: { link: 'http://127.0.0.1:9/private', pleaseParse: {} } });
  expect(made.status).toBe(200);
  await until(() => written.includes('job failed'));

  const lines = written.trimEnd().split('\n').filter((l) => !l.startsWith('    ')); // stack lines of an error are indented
  for (const line of lines) expect(line).toMatch(/^\d\d:\d\d:\d\d\.\d{3} (TRACE|DEBUG|INFO |WARN |ERROR|FATAL) /);
  expect(written).toMatch(/INFO {2}\[req-\w+\] GET \/rest\/v1\/user from 127\.0\.0\.1\n/);
  expect(written).toMatch(/INFO {2}\[req-\w+\] 200 \d+\.\d ms\n/);
  expect(written).toMatch(/INFO {2}job failed name=jobs job=\d+ kind=page/);
});
