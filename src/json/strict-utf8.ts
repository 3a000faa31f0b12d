// Request bodies as text. Buffer#toString replaces bytes that are not UTF-8 with U+FFFD, which
// was then stored as if sent; here they are a 422 instead.
import { ValidationError } from '../errors.ts';

const strictUtf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

export function decodeUtf8(body: Buffer): string {
  try {
    return strictUtf8.decode(body);
  } catch {
    throw new ValidationError([{ loc: ['body'], msg: 'is not valid UTF-8', type: 'json_invalid' }]);
  }
}
