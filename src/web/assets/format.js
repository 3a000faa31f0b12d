// Dates and numbers as the pages show them: UTC, to the second, so what a person reads matches
// the API and the command line.

export function utc(iso) {
  if (!iso) return '';
  return new Date(iso).toISOString().replace('T', ' ').replace(/\.\d+Z$/, 'Z');
}

export function count(n) {
  return Number(n).toLocaleString('en-US');
}

/** "in 4 min", "2 h ago": how far an instant is from now. */
export function relative(iso, now = Date.now()) {
  if (!iso) return '';
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const size = Math.abs(seconds);
  const text = size < 60 ? `${size} s` : size < 3600 ? `${Math.round(size / 60)} min` : size < 86400 ? `${Math.round(size / 3600)} h` : `${Math.round(size / 86400)} d`;
  return seconds >= 0 ? `in ${text}` : `${text} ago`;
}
