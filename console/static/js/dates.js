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
