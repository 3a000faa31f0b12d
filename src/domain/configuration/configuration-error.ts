// What every stage of reading a configuration file reports: a problem at a location of the
// document (`loc`, keys and list indexes from the top), with the line and column of the file
// it sits in when the YAML told us. One shape for YAML, vocabulary and condition errors alike.

export type ConfigurationLoc = (string | number)[];

export interface ConfigurationError {
  loc: ConfigurationLoc;
  msg: string;
  /** The file the line and column refer to (the extended repository's file for its errors). */
  path?: string;
  /** 1-based, when the YAML position of `loc` (or of its nearest located parent) is known. */
  line?: number;
  column?: number;
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_-]*$/;

/** `queue_rules[0].autosquash`: how not-supported options and messages name a location. */
export function dottedPath(loc: readonly (string | number)[]): string {
  let path = '';
  for (const key of loc) {
    if (typeof key === 'number') path += `[${key}]`;
    else if (IDENTIFIER.test(key)) path += path === '' ? key : `.${key}`;
    else path += `[${JSON.stringify(key)}]`;
  }
  return path;
}
