// An answer sent before the request's body was read in full (413, 403 from headers, 503 of the
// body budget) closes the connection, and closing a socket that still receives data makes the
// kernel send a reset, which can reach the client before it read the answer: curl then saw
// "Connection reset by peer" instead of the 413. As web servers do ("lingering close"), the
// connection is half-closed after the answer and what the client still sends is read and
// dropped for up to LINGER_MS, then it is closed.
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export const LINGER_MS = 2_000;

function lingerThenClose(socket: Socket): void {
  // Node's server calls destroySoon() once a `Connection: close` answer is written: end our
  // side, keep reading (the HTTP parser drops the rest of the body), close later.
  socket.destroySoon = function lingeringClose(this: Socket) {
    this.end();
    const timer = setTimeout(() => this.destroy(), LINGER_MS);
    timer.unref();
    this.once('close', () => clearTimeout(timer));
    this.once('end', () => this.destroy());
    this.resume();
  };
}

export function registerLingeringClose(app: FastifyInstance): void {
  app.addHook('onSend', async (request, reply, payload) => {
    const socket = request.raw.socket;
    if (request.raw.complete || !socket || socket.destroyed) return payload;
    reply.header('connection', 'close');
    lingerThenClose(socket);
    return payload;
  });
}
