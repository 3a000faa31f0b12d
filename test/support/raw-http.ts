// A request written by hand on its own connection, for what fetch cannot do: send headers and
// part of a body, then stall; see the answer as soon as the server gives it.
import { connect, type Socket } from 'node:net';

export interface RawAnswer {
  status: number;
  headers: string;
  body: string;
}

export interface RawRequest {
  socket: Socket;
  /** The first answer on the connection; status 0 when it closed (or `waitMs` passed) without one. */
  answer: Promise<RawAnswer>;
  /** Writes more of the body; resolves once it is handed to the kernel. */
  send(bytes: Buffer | string): Promise<void>;
}

function parse(raw: string): RawAnswer {
  const end = raw.indexOf('\r\n\r\n');
  const head = end < 0 ? raw : raw.slice(0, end);
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), headers: head, body: end < 0 ? '' : raw.slice(end + 4) };
}

/**
 * Opens a connection to `baseUrl` and writes `head` (request line and headers, blank line
 * included). `from` is the local address (127.0.0.2 is another client on loopback).
 */
export function rawRequest(baseUrl: string, head: string, options: { waitMs?: number; from?: string } = {}): RawRequest {
  const { port } = new URL(baseUrl);
  const waitMs = options.waitMs ?? 10_000;
  const socket = connect({ port: Number(port), host: '127.0.0.1', localAddress: options.from });
  socket.on('error', () => undefined);
  socket.write(head);
  const answer = new Promise<RawAnswer>((resolve) => {
    let received = '';
    const settle = () => resolve(parse(received));
    socket.on('data', (chunk) => {
      received += chunk.toString('latin1');
      const answered = parse(received);
      const length = /\r\ncontent-length: *(\d+)/i.exec(answered.headers)?.[1];
      if (answered.status >= 200 && length !== undefined && Buffer.byteLength(answered.body, 'latin1') >= Number(length)) settle();
    });
    socket.on('close', settle);
    setTimeout(settle, waitMs).unref();
  });
  const send = (bytes: Buffer | string) => new Promise<void>((resolve) => (socket.writable ? socket.write(bytes, () => resolve()) : resolve()));
  return { socket, answer, send };
}

export function requestHead(method: string, path: string, headers: Record<string, string | number>): string {
  return `${method} ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${Object.entries(headers).map(([name, value]) => `${name}: ${value}\r\n`).join('')}\r\n`;
}
