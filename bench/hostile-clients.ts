// One of issue 20's hostile clients as a process of its own (bench/hostile-floods.ts starts one
// per flood), so building and sending its bodies does not compete with the server's event loop
// or the measured client's: `items` (item 1), 8 loops sending 1 MiB bodies of invalid items from
// 127.0.0.2; `listings` (item 4), 16 loops of 92-day filtered listings of one owner from
// 127.0.0.2; `webhooks` (item 2), up to 200 forged webhooks from 127.0.0.3 announcing 5 MiB and
// sending 1 MiB, held until the end. Runs `--seconds` (at most 120), then prints what the server
// answered, as JSON. `--start-at` (milliseconds since the epoch) holds it until then, so that
// floods started one after the other begin together.
//   node --import tsx bench/hostile-clients.ts --port 8080 --flood items --key <admin key of mallory> --seconds 30 [--start-at 1764256000000]
import http from 'node:http';
import { parseArgs } from 'node:util';
import { rawRequest, requestHead, type RawRequest } from '../test/support/raw-http.ts';

const { values } = parseArgs({ options: { port: { type: 'string' }, flood: { type: 'string' }, key: { type: 'string', default: '' }, seconds: { type: 'string', default: '15' }, 'start-at': { type: 'string' } } });
const port = Number(values.port);
const seconds = Math.min(120, Number(values.seconds));
const startAt = Number(values['start-at'] ?? Date.now());
await new Promise((resolve) => setTimeout(resolve, Math.max(0, startAt - Date.now())));
const deadline = startAt + seconds * 1000;
const running = () => Date.now() < deadline;
const MiB = 1024 * 1024;
const answers: Record<string, number> = {};
const count = (status: number) => (answers[status] = (answers[status] ?? 0) + 1);

function send(from: string, method: string, path: string, body?: string): Promise<number> {
  return new Promise((resolve) => {
    const headers: Record<string, string | number> = { authorization: `Bearer ${values.key}` };
    if (body !== undefined) Object.assign(headers, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    const request = http.request({ host: '127.0.0.1', port, method, path, headers, localAddress: from, agent: false }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('error', () => resolve(0));
    request.end(body);
  });
}

const invalidBody = `{"products": [${Array(Math.floor((MiB - 20) / 3)).fill('[]').join(',')}]}`;
const itemLoop = async () => {
  while (running()) count(await send('127.0.0.2', 'PUT', '/v1/default_products/mallory', invalidBody));
};

const now = Date.now();
const window = `received_from=${new Date(now - 92 * 86400_000).toISOString()}&received_to=${new Date(now).toISOString()}&outcome=failure&per_page=100`;
const listLoop = async () => {
  while (running()) count(await send('127.0.0.2', 'GET', `/v1/repos/mallory/junk/logs?${window}`));
};

const halfSent: RawRequest[] = [];
const webhookFlood = async () => {
  const baseUrl = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200 && running(); i++) {
    const head = requestHead('POST', '/v1/hooks/hosting', { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-github-delivery': `d${i}`, 'x-hub-signature-256': `sha256=${'0'.repeat(64)}`, 'content-length': 5 * MiB - 1 });
    const request = rawRequest(baseUrl, head, { from: '127.0.0.3', waitMs: seconds * 1000 });
    halfSent.push(request);
    await request.send(Buffer.alloc(MiB, 0x20));
  }
  await new Promise((resolve) => setTimeout(resolve, Math.max(0, deadline - Date.now())));
  // Status 0: still waiting for an answer at the end.
  for (const request of halfSent) {
    request.socket.destroy();
    count((await request.answer).status);
  }
};

const floods: Record<string, () => Promise<unknown>> = {
  items: () => Promise.all(Array.from({ length: 8 }, itemLoop)),
  listings: () => Promise.all(Array.from({ length: 16 }, listLoop)),
  webhooks: webhookFlood,
};
const flood = floods[values.flood ?? ''];
if (!flood) throw new Error(`--flood must be one of ${Object.keys(floods).join(', ')}`);
await flood();
process.stdout.write(`${JSON.stringify(answers)}\n`);
process.exit(0);
