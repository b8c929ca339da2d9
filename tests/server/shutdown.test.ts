// Closing the server (SIGTERM on `serve`, app.close() in tests) is not held open by client connections:
// neither one kept alive after its request nor one a browser opened ahead of need and never used
// (Chromium preconnects; Node times such a connection by headersTimeout, 60 s, and would hold the
// close that long).
import net from 'node:net';
import { expect, it } from 'vitest';
import { startServer } from '../helpers/server.js';

/** A raw TCP connection to `origin`, open. */
async function connect(origin: string): Promise<net.Socket> {
  const { hostname, port } = new URL(origin);
  const socket = net.connect(Number(port), hostname);
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  return socket;
}

/** Resolves when the server ends `socket`. */
const endedByServer = (socket: net.Socket) => new Promise<void>((resolve) => socket.once('close', () => resolve()));

it('closes while a browser holds a connection that never sent a request, and one kept alive after its answer; both are closed', async () => {
  const s = await startServer();
  const preconnected = await connect(s.origin);
  const keptAlive = await connect(s.origin);
  keptAlive.write(`GET /rest/v1/user HTTP/1.1\r\nHost: ${new URL(s.origin).host}\r\nConnection: keep-alive\r\n\r\n`);
  const answer = await new Promise<string>((resolve) => keptAlive.once('data', (chunk) => resolve(String(chunk))));
  expect(answer).toMatch(/^HTTP\/1\.1 401/);
  const bothEnded = Promise.all([endedByServer(preconnected), endedByServer(keptAlive)]);

  // Before the fix this waited for Node's headersTimeout (60 s): past this test's time limit.
  await s.close();
  await bothEnded;
  expect(preconnected.destroyed && keptAlive.destroyed).toBe(true);
});
