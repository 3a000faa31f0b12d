// Oversized bodies get a 413 the client can read (issue 20, item 6), not a reset: the answer
// goes out, then the connection lingers, reading and dropping what the client still sends,
// before it is closed. Node's http client and curl, with Content-Length and chunked bodies.
import { after, before, describe, test } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import http from 'node:http';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SERVICE_TOKEN, startTestApp, type TestApp } from '../support/test-app.ts';

const MiB = 1024 * 1024;
const ROUNDS = 8;

function nodeClientStatus(baseUrl: string, size: number, chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const { port } = new URL(baseUrl);
    const headers: Record<string, string | number> = { authorization: `Bearer ${SERVICE_TOKEN}`, 'content-type': 'application/json' };
    if (!chunked) headers['content-length'] = size;
    const request = http.request({ host: '127.0.0.1', port, method: 'POST', path: '/v1/admin/keys', headers, agent: false });
    const timer = setTimeout(() => (resolve('no answer'), request.destroy()), 15_000);
    request.on('response', (response) => {
      response.resume();
      response.on('end', () => (clearTimeout(timer), resolve(String(response.statusCode))));
      response.on('error', (error) => (clearTimeout(timer), resolve(`response ${(error as NodeJS.ErrnoException).code}`)));
    });
    request.on('error', (error) => (clearTimeout(timer), resolve(`error ${(error as NodeJS.ErrnoException).code}`)));
    const chunk = Buffer.alloc(64 * 1024, 0x20);
    let sent = 0;
    const write = (): void => {
      while (sent < size) {
        sent += chunk.length;
        if (!request.write(chunk)) return void request.once('drain', write);
      }
      request.end();
    };
    write();
  });
}

function curlStatus(baseUrl: string, file: string, chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const args = ['-sS', '--max-time', '15', '-o', '/dev/null', '-w', '%{http_code}', '-X', 'POST', '-H', `authorization: Bearer ${SERVICE_TOKEN}`, '-H', 'content-type: application/json'];
    if (chunked) args.push('-H', 'transfer-encoding: chunked');
    const curl = spawn('curl', [...args, '--data-binary', `@${file}`, `${baseUrl}/v1/admin/keys`]);
    let out = '';
    curl.stdout.on('data', (data) => (out += data));
    curl.stderr.on('data', (data) => (out += ` ${data}`));
    curl.on('close', () => resolve(out.trim()));
    curl.on('error', (error) => resolve(`spawn ${error.message}`));
  });
}

describe('oversized bodies', () => {
  let t: TestApp;
  let dir: string;
  let file: string;
  before(async () => {
    t = await startTestApp('pglite');
    dir = await mkdtemp(join(tmpdir(), 'switchyard-413-'));
    file = join(dir, 'body');
    await writeFile(file, Buffer.alloc(16 * MiB, 0x20));
  });
  after(async () => {
    await t.close();
    await rm(dir, { recursive: true, force: true });
  });

  for (const chunked of [false, true]) {
    test(`Node's http client reads the 413 of a 16 MiB body (${chunked ? 'chunked' : 'Content-Length'}), every time`, async () => {
      const answers = [];
      for (let i = 0; i < ROUNDS; i++) answers.push(await nodeClientStatus(t.baseUrl, 16 * MiB, chunked));
      assert.deepEqual(answers, Array(ROUNDS).fill('413'));
    });

    test(`curl reads the 413 of a 16 MiB body (${chunked ? 'chunked' : 'Content-Length'}), every time`, async () => {
      const answers = [];
      for (let i = 0; i < ROUNDS; i++) answers.push(await curlStatus(t.baseUrl, file, chunked));
      assert.deepEqual(answers, Array(ROUNDS).fill('413'));
    });
  }
});
