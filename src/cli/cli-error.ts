// A failure the command line reports in one line and an exit status: 1 when the API refused or
// failed, 2 for a usage error, 3 when Switchyard could not be reached.
export const EXIT_API_ERROR = 1;
export const EXIT_USAGE = 2;
export const EXIT_UNREACHABLE = 3;

export class CliError extends Error {
  constructor(
    message: string,
    readonly exitCode: number = EXIT_API_ERROR,
  ) {
    super(message);
  }
}

export const usageError = (message: string) => new CliError(message, EXIT_USAGE);
