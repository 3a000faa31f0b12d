#!/usr/bin/env node
// The `switchyard` command: loads TypeScript through tsx in this same process (no child process,
// so signals reach the command directly) and runs src/cli/main.ts.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/main.ts');
await main();
