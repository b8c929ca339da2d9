// Loopback ports for test servers that stop and start again at the same address (the e2e server of
// the offline tests, a PostgreSQL cluster paused and resumed). A port the kernel hands out for
// `listen(0)` lies in its ephemeral range (/proc/sys/net/ipv4/ip_local_port_range), the range every
// outgoing connection and every other `listen(0)` on the machine takes its ports from: between a
// probe freeing such a port and the server taking it, or while the server is down, any process may
// be given it. Below that range the kernel never hands a port out by itself, so only a process
// asking for that very number can take it.
import fs from 'node:fs';
import net from 'node:net';

const LOWEST = 10_000;

/** The first port of the kernel's ephemeral range (32768 when it cannot be read). */
function ephemeralStart(): number {
  try {
    const [low] = fs.readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && low > LOWEST + 1000) return low;
  } catch {
    // Not Linux: the IANA range's start, which other systems use.
    return 49152;
  }
  return 32768;
}

/** Whether nothing listens on `port` at `host` (or the address does not exist here, as ::1 without IPv6). */
function freeAt(port: number, host: string): Promise<boolean> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => resolve(err.code === 'EADDRNOTAVAIL' || err.code === 'EAFNOSUPPORT'));
    srv.listen({ port, host, exclusive: true }, () => srv.close(() => resolve(true)));
  });
}

/**
 * A port below the ephemeral range that is free on 127.0.0.1 and on ::1 (clients that ask for
 * `localhost`, as the extension does, may try either).
 */
export async function stablePort(): Promise<number> {
  const top = ephemeralStart();
  for (let attempt = 0; attempt < 200; attempt++) {
    const port = LOWEST + Math.floor(Math.random() * (top - LOWEST));
    if ((await freeAt(port, '127.0.0.1')) && (await freeAt(port, '::1'))) return port;
  }
  throw new Error(`No free loopback port between ${LOWEST} and ${top} after 200 tries.`);
}
