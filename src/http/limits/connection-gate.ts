// Connections open at once, in all and per client address (issue 20, item 3): 21,000 idle
// half-sent connections from one client took every file descriptor the process had, and every
// other client was locked out until they timed out. Each new connection is counted before Node's
// HTTP server sees it; one past either bound is refused at once (a 503, then closed), never
// queued. A trusted proxy carries every client's connections, so its own address counts in the
// total only: behind one, limiting each client's connections is the proxy's work.
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { addressKey } from '../../domain/address-key.ts';
import { errorCatalogue } from '../../errors.ts';

export interface ConnectionLimits {
  total: number;
  perAddress: number;
}

export type Refusal = 'total' | 'address';

export class ConnectionGate {
  private open = 0;
  private readonly openBy = new Map<string, number>();
  /** connections refused since start, by the bound they met (for /metrics) */
  readonly refused: Record<Refusal, number> = { total: 0, address: 0 };

  constructor(
    private readonly limits: ConnectionLimits,
    /** addresses counted in the total only (trusted proxies) */
    private readonly sharedAddress: (address: string) => boolean = () => false,
  ) {}

  /** A function that gives the connection's place back, or the bound it would pass. */
  admit(address: string): (() => void) | Refusal {
    const key = this.sharedAddress(address) ? undefined : addressKey(address);
    const mine = key === undefined ? 0 : (this.openBy.get(key) ?? 0);
    const refusal = this.open >= this.limits.total ? 'total' : key !== undefined && mine >= this.limits.perAddress ? 'address' : undefined;
    if (refusal) {
      this.refused[refusal]++;
      return refusal;
    }
    this.open++;
    if (key !== undefined) this.openBy.set(key, mine + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.open--;
      if (key === undefined) return;
      const left = this.openBy.get(key)! - 1;
      if (left > 0) this.openBy.set(key, left);
      else this.openBy.delete(key);
    };
  }

  get openConnections(): number {
    return this.open;
  }
}

/** How long a refused connection may take to read its 503 before it is closed anyway. */
export const REFUSAL_LINGER_MS = 1_000;
/**
 * Refusals answered with a 503 per second. Answering costs about twice as much as closing (0.18
 * against 0.09 ms of CPU each, measured on this loaded 2-core machine): past this many a second,
 * a flood of connections, the rest are closed without a word.
 */
const ANSWERED_REFUSALS_PER_SECOND = 100;

const REFUSAL = (() => {
  const { status, detail } = errorCatalogue.connections_limited;
  const body = JSON.stringify({ detail });
  return `HTTP/1.1 ${status} Service Unavailable\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nRetry-After: 5\r\nConnection: close\r\n\r\n${body}`;
})();

/**
 * Puts `gate` in front of `server`. Node's HTTP server takes a connection in its own
 * 'connection' listener; it now runs for admitted connections only, so a refused one never gets
 * a parser, a request or a timer.
 */
export function gateConnections(server: Server, gate: ConnectionGate): void {
  const serve = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  let second = 0;
  let answered = 0;
  const refuse = (socket: Socket) => {
    socket.on('error', () => undefined);
    const now = Math.floor(Date.now() / 1000);
    if (now !== second) [second, answered] = [now, 0];
    if (++answered > ANSWERED_REFUSALS_PER_SECOND) return void socket.destroy();
    const timer = setTimeout(() => socket.destroy(), REFUSAL_LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    // What the client sent is read and dropped: closing with unread bytes would reset the
    // connection, and the reset can overtake the answer.
    socket.once('end', () => socket.destroy());
    socket.end(REFUSAL);
    socket.resume();
  };
  server.on('connection', (socket: Socket) => {
    const admitted = socket.remoteAddress === undefined ? undefined : gate.admit(socket.remoteAddress);
    if (admitted === undefined) return void socket.destroy(); // gone before it was seen
    if (typeof admitted !== 'function') return refuse(socket);
    socket.once('close', admitted);
    for (const listener of serve) listener.call(server, socket);
  });
}
