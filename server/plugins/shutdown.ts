// Closing the server promptly: requests in flight finish, and no client connection can hold the close
// open until it times out.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

/**
 * From the close on (preClose, after the background jobs stopped):
 * - a keep-alive connection closes right after its answer (keep-alive timeout of 1 ms), and Fastify's
 *   `forceCloseConnections: 'idle'` closes the ones idle between requests;
 * - a connection that never sent a byte is closed too. A browser opens such connections ahead of need
 *   (preconnect); Node counts them as waiting for a request's headers, not as idle, so
 *   `closeIdleConnections` leaves them and `close()` would wait up to `headersTimeout` (60 s).
 *   Closing it loses nothing: no request is on it, and one sent now would find the server closed anyway.
 * Costs one Set entry per connection (not per request) while serving.
 */
export function installShutdown(app: FastifyInstance): void {
  const open = new Set<Socket>();
  app.server.on('connection', (socket: Socket) => {
    open.add(socket);
    socket.once('close', () => open.delete(socket));
  });
  app.addHook('preClose', async () => {
    app.server.keepAliveTimeout = 1;
    for (const socket of open) if (socket.bytesRead === 0) socket.destroy();
  });
}
