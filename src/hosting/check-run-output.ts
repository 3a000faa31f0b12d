// A check run's output as GitHub takes it, and whether a run already says what this service
// wants it to. GitHub refuses a summary or text beyond 65535 characters, and beyond 65535 bytes
// of UTF-8 once stored: both are kept by cutting at 65535 bytes, on a character boundary, with
// a note saying how much was left out.
import type { CheckRun, CheckRunWrite } from './hosting-types.ts';

export const OUTPUT_LIMIT_BYTES = 65535;

export function fitOutput(text: string): string {
  const bytes = Buffer.from(text, 'utf8');
  if (bytes.length <= OUTPUT_LIMIT_BYTES) return text;
  // The note's own length depends on the number in it: reserve for the longest it can be.
  const reserve = Buffer.byteLength(note(bytes.length));
  let cut = OUTPUT_LIMIT_BYTES - reserve;
  // Back off to the first byte of a character (continuation bytes are 0b10xxxxxx).
  while (cut > 0 && (bytes[cut]! & 0xc0) === 0x80) cut -= 1;
  return bytes.subarray(0, cut).toString('utf8') + note(bytes.length - cut);
}

function note(omittedBytes: number): string {
  return `\n\n… (truncated: ${omittedBytes} more bytes did not fit the platform's limit)`;
}

/** The output as it will be sent: fitted, with no text written as no text. */
export function outputOf(wanted: CheckRunWrite): { title: string; summary: string; text: string | undefined } {
  return { title: wanted.title, summary: fitOutput(wanted.summary), text: wanted.text === undefined ? undefined : fitOutput(wanted.text) };
}

/** Whether `run` already is what `wanted` asks for: then nothing needs writing. */
export function checkRunMatches(run: CheckRun, wanted: CheckRunWrite): boolean {
  const output = outputOf(wanted);
  return (
    run.status === wanted.status &&
    (wanted.status !== 'completed' || run.conclusion === (wanted.conclusion ?? null)) &&
    run.output.title === output.title &&
    run.output.summary === output.summary &&
    (run.output.text ?? '') === (output.text ?? '') &&
    (wanted.externalId === undefined || run.externalId === wanted.externalId)
  );
}
