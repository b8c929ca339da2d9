import { readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FetchError, fetchPage, type Resolver } from '../../server/services/parse/index.js';

const tls = (name: string) => readFileSync(fileURLToPath(new URL(`../fixtures/import/tls/${name}`, import.meta.url)));
const ca = tls('ca.pem');

let server: Server;
let port: number;
let hits = 0;
const toLoopback: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];

beforeAll(async () => {
  server = createServer({ key: tls('server.key'), cert: tls('server.pem') }, (_req, res) => {
    hits++;
    res.writeHead(200, { 'content-type': 'text/html' }).end('<title>secure</title>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  port = (server.address() as AddressInfo).port;
});

afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

async function code(run: Promise<unknown>): Promise<string> {
  try {
    await run;
  } catch (error) {
    expect(error).toBeInstanceOf(FetchError);
    return (error as FetchError).code;
  }
  return 'no error';
}

describe('fetchPage over https with a pinned address', () => {
  it('verifies the certificate against the host name while connecting to the checked address', async () => {
    const page = await fetchPage(`https://pinned.test:${port}/`, { resolve: toLoopback, allowPrivateNetwork: true, ca });
    expect(page.status).toBe(200);
    expect(page.body.toString()).toBe('<title>secure</title>');
  });

  it('refuses a certificate for another name', async () => {
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    expect(await code(fetchPage(`https://other.test:${port}/`, { resolve, allowPrivateNetwork: true, ca }))).toBe('tls_failure');
  });

  it('refuses a certificate from an authority it does not trust', async () => {
    expect(await code(fetchPage(`https://pinned.test:${port}/`, { resolve: toLoopback, allowPrivateNetwork: true }))).toBe('tls_failure');
  });

  it('refuses the loopback address over https too, without sending the request', async () => {
    const before = hits;
    expect(await code(fetchPage(`https://pinned.test:${port}/`, { resolve: toLoopback, ca }))).toBe('blocked_address');
    expect(hits).toBe(before);
  });
});
