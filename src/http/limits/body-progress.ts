// A request body must keep arriving: one that pauses longer than `stallMs` is answered 408 and
// its connection closed. The request timeout bounds a whole request (long enough for a 10 MiB
// batch over a slow link); this bounds a pause, which no legitimate client makes, so a body
// that stops mid-way holds its connection and its bytes for seconds, not minutes. The clock runs
// only once the body is being read: time spent checking the credential is not the client's.
import { Transform, type TransformCallback } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../../errors.ts';

class ProgressWatch extends Transform {
  private timer: NodeJS.Timeout | undefined;
  private stopped = false;

  constructor(private readonly stallMs: number) {
    super();
  }

  override _read(size: number): void {
    if (!this.stopped) this.timer ??= setTimeout(() => this.destroy(new ApiError('request_timeout', `The request body stopped arriving for more than ${this.stallMs / 1000} s.`)), this.stallMs).unref();
    super._read(size);
  }

  override _transform(chunk: Buffer, _encoding: BufferEncoding, callback: TransformCallback): void {
    if (!this.stopped) this.timer?.refresh();
    callback(null, chunk);
  }

  override _flush(callback: TransformCallback): void {
    this.stop();
    callback();
  }

  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    this.stop();
    callback(error);
  }

  stop(): void {
    this.stopped = true;
    clearTimeout(this.timer);
  }
}

export function registerBodyProgress(app: FastifyInstance, stallMs: number): void {
  app.addHook('preParsing', async (request, reply, payload) => {
    if (request.headers['content-length'] === undefined && request.headers['transfer-encoding'] === undefined) return payload;
    const watched = new ProgressWatch(stallMs);
    payload.pipe(watched);
    payload.on('error', (error) => watched.destroy(error));
    // Answered early (a 413, a 403 from the headers): the body no longer matters.
    reply.raw.once('close', () => watched.stop());
    return watched;
  });
}
