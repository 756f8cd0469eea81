// Days as a merchant reads them: "1 December", or "1 December 2027" when not this year. Never
// seconds or times of day for a quota's renewal.
const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August',
  'September', 'October', 'November', 'December'];

// iso: "2026-12-01" or a full ISO 8601 time (its UTC day is used).
export function formatDay(iso) {
  if (!iso) return '';
  const m = /^(\d{4})-(\d{2})-(\d{2})/.exec(iso);
  if (!m) return iso;
  const year = Number(m[1]);
  const day = `${Number(m[3])} ${MONTHS[Number(m[2]) - 1]}`;
  return year === new Date().getUTCFullYear() ? day : `${day} ${year}`;
}

// Bytes as "50 MB" (MB of 1,048,576 bytes, as the service counts them), one decimal below 10 MB.
export function formatMegabytes(bytes) {
  const mb = bytes / (1024 * 1024);
  return mb < 10 && bytes % (1024 * 1024) !== 0 ? `${mb.toFixed(1)} MB` : `${Math.round(mb)} MB`;
}

const SHORT_MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
const plural = (n, word) => `${n} ${word}${n === 1 ? '' : 's'}`;

// A wait as a merchant reads it, for "Try again …": "in 40 seconds", "in 3 minutes", or past an
// hour the moment itself, "on 27 Nov at 14:00 UTC" (rounded up to the minute). seconds: from a
// Retry-After header; now: a Date (the browser's clock by default).
export function formatWait(seconds, now = new Date()) {
  const s = Math.max(1, Math.ceil(Number(seconds) || 0));
  if (s < 60) return `in ${plural(s, 'second')}`;
  if (s < 3600) return `in ${plural(Math.ceil(s / 60), 'minute')}`;
  const at = new Date(Math.ceil((now.getTime() + s * 1000) / 60000) * 60000);
  const hh = String(at.getUTCHours()).padStart(2, '0');
  const mm = String(at.getUTCMinutes()).padStart(2, '0');
  const year = at.getUTCFullYear() === now.getUTCFullYear() ? '' : ` ${at.getUTCFullYear()}`;
  return `on ${at.getUTCDate()} ${SHORT_MONTHS[at.getUTCMonth()]}${year} at ${hh}:${mm} UTC`;
}

// The seconds to wait that an answer names: its Retry-After, else its X-RateLimit-Reset (Unix
// seconds) from now; null when it names neither.
export function waitSeconds(headers, now = new Date()) {
  const retry = headers.get('Retry-After');
  if (retry !== null && /^\d+$/.test(retry.trim())) return Number(retry.trim());
  const reset = headers.get('X-RateLimit-Reset');
  if (reset !== null && /^\d+$/.test(reset.trim())) return Math.max(1, Number(reset.trim()) - Math.floor(now.getTime() / 1000));
  return null;
}

// The API's words for a wait ("…; retry after 415229 s.", "retry after the window resets.")
// with the wait as a time ("…; try again on 1 Dec at 00:00 UTC."); without such words and with a
// wait, the sentence is added.
export function withHumanWait(message, seconds, now = new Date()) {
  if (seconds === null || seconds === undefined) return message;
  const when = formatWait(seconds, now);
  const re = /retry after (\d+ s|the window resets)\./i;
  if (re.test(message)) return message.replace(re, `try again ${when}.`);
  if (/retry|try again|renews/i.test(message)) return message;
  return `${message} Try again ${when}.`;
}
