// Every request body passes through a meter that charges its bytes, as they arrive, to the
// process's BodyMemoryBudget, and gives them back once the answer is sent or the connection
// closes. Bytes are charged as they arrive, not as announced: a client pays for what it sent.
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.ts';
import type { BodyMemoryBudget } from './body-memory-budget.ts';

class MeteredBody extends Transform {
  private charged = 0;
  private released = false;

  constructor(
    private readonly budget: BodyMemoryBudget,
    private readonly client: string,
  ) {
    super();
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    // After the answer nothing keeps the bytes: they are not charged.
    if (this.released) return callback(null, chunk);
    if (!this.budget.reserve(this.client, chunk.length)) return callback(new ApiError('bodies_in_flight_limited'));
    this.charged += chunk.length;
    callback(null, chunk);
  }

  release(): void {
    if (this.released) return;
    this.released = true;
    this.budget.release(this.client, this.charged);
    this.charged = 0;
  }
}

export function registerMeteredBodies(app: FastifyInstance, budget: BodyMemoryBudget): void {
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) return payload;
    const metered = new MeteredBody(budget, request.ip);
    // Not pipeline(): it would destroy the request, and the socket with it, on a refusal that
    // has an answer to send.
    payload.pipe(metered);
    payload.on('error', (error) => metered.destroy(error));
    reply.raw.once('close', () => metered.release());
    return metered;
  });
}
