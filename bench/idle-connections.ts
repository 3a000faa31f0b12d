// The idle-connection flood of issue 20, item 3, as one attacking process (bench/hostile-floods.ts
// starts as many as the count needs: each process has its own open-file limit). Keeps up to
// `--count` connections from `--from` open to 127.0.0.1:`--port`, each having sent the start of a
// request and nothing more; one the server closes is opened again, at most `--rate` openings a
// second in all, until `--seconds` have passed. Prints what the server did with them, as JSON.
// `--start-at` (milliseconds since the epoch) holds it until then.
//   node --import tsx bench/idle-connections.ts --port 8080 --from 127.0.0.4 --count 10000 --rate 1500 --seconds 20
import { connect } from 'node:net';
import { parseArgs } from 'node:util';

const { values } = parseArgs({ options: { port: { type: 'string' }, from: { type: 'string', default: '127.0.0.4' }, count: { type: 'string', default: '1000' }, rate: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '15' }, 'start-at': { type: 'string' } } });
const port = Number(values.port);
const count = Math.min(19_000, Number(values.count));
const rate = Number(values.rate);
const start = Number(values['start-at'] ?? Date.now());
await new Promise((resolve) => setTimeout(resolve, Math.max(0, start - Date.now())));
const deadline = start + Math.min(120, Number(values.seconds)) * 1000;

const HALF_SENT = 'GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Waiting: ';
const seen = { opened: 0, refused503: 0, timedOut408: 0, closedSilently: 0, connectErrors: 0, heldLongestMs: 0 };
let open = 0;

function openOne(): void {
  open++;
  seen.opened++;
  const started = Date.now();
  let answer = '';
  const socket = connect({ port, host: '127.0.0.1', localAddress: values.from });
  socket.on('connect', () => socket.write(HALF_SENT));
  socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
  socket.on('error', (error: NodeJS.ErrnoException) => {
    if (error.code !== 'ECONNRESET' && error.code !== 'EPIPE') seen.connectErrors++;
  });
  socket.on('close', () => {
    open--;
    seen.heldLongestMs = Math.max(seen.heldLongestMs, Date.now() - started);
    if (answer.startsWith('HTTP/1.1 503')) seen.refused503++;
    else if (answer.startsWith('HTTP/1.1 408')) seen.timedOut408++;
    else seen.closedSilently++;
  });
}

// Every 10 ms, as many more as the rate allows since the start (however late the timer comes),
// until `count` are open: a wave, then each closed one again.
const timer = setInterval(() => {
  if (Date.now() >= deadline) {
    clearInterval(timer);
    process.stdout.write(`${JSON.stringify({ ...seen, openAtEnd: open })}\n`);
    process.exit(0);
  }
  const allowed = Math.floor(((Date.now() - start) * rate) / 1000);
  while (seen.opened < allowed && open < count) openOne();
}, 10);
