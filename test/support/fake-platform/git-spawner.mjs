// Starts git processes for the fake platform on behalf of the process that runs it (see
// run-git.ts): a test process holding an embedded database forks slowly, because fork copies
// the page tables of its whole memory, while this small process forks in a fraction of that.
// Plain JavaScript, so it starts without a TypeScript loader. One request per IPC message:
// { id, command, args, cwd, env, input }; one answer per request: { id, code, stdout, stderr }
// (code null with `error` when git could not be started at all).
import { spawn } from 'node:child_process';

process.on('message', (request) => {
  const child = spawn(request.command, request.args, { cwd: request.cwd, env: request.env, stdio: ['pipe', 'pipe', 'pipe'] });
  const out = [];
  const err = [];
  let failed = null;
  child.stdout.on('data', (chunk) => out.push(chunk));
  child.stderr.on('data', (chunk) => err.push(chunk));
  child.on('error', (error) => (failed = error.message));
  child.on('close', (code) => {
    process.send({ id: request.id, code, error: failed, stdout: Buffer.concat(out).toString('utf8'), stderr: Buffer.concat(err).toString('utf8') });
  });
  child.stdin.on('error', () => undefined); // git may exit before reading all of its input
  child.stdin.end(request.input);
});
// The parent went away: nothing left to answer.
process.on('disconnect', () => process.exit(0));
