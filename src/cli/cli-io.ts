// What a command may touch of the outside world, passed in so tests run commands in-process:
// the environment (read only through config.ts), the working directory, and the two outputs.
export interface CliIo {
  readonly env: Record<string, string | undefined>;
  readonly cwd: string;
  stdout(text: string): void;
  stderr(text: string): void;
  /** Aborted when the user asks the command to stop (SIGINT, SIGTERM): `logs --follow` ends on it. */
  readonly signal?: AbortSignal;
}
