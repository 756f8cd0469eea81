// The job list, newest first, 20 at a time; "Older jobs" pages with ?before=<created_at>. Each job
// shows its checks and its feed (a link to the feed's uploads, ?feed=…); the list can be searched
// by file name (?filename=…, part of the name in any case).
import { api } from './api.js';
import { $, el, formatDate, formatNumber, run, showError, showNotice, startPrivatePage, statusBadge } from './ui.js';

const PAGE = 20;
const params = new URLSearchParams(location.search);
const filter = { feed: params.get('feed') || '', filename: params.get('filename') || '' };
let oldest = null;

function row(job) {
  const link = el('a', { href: '/console/job?id=' + encodeURIComponent(job.id) }, job.filename || job.id);
  const checks = String(job.check_types || '').split(',').filter(Boolean).join(', ');
  const limited = job.max_rows ? el('div', { class: 'small text-body-secondary' }, `first ${formatNumber(job.rows_total)} of ${formatNumber(job.rows_in_file)}`) : null;
  // data-label: the column's name, shown beside each value when the rows are cards (narrow screens).
  return el('tr', {},
    el('td', { class: 'file-cell', 'data-label': 'File' }, link),
    el('td', { class: 'checks-cell', 'data-label': 'Checks' }, checks),
    el('td', { class: 'feed-cell', 'data-label': 'Feed' }, job.feed ? el('a', { href: '/console/jobs?feed=' + encodeURIComponent(job.feed) }, job.feed) : '—'),
    el('td', { 'data-label': 'Status' }, statusBadge(job.status)),
    el('td', { class: 'text-end', 'data-label': 'Rows' }, formatNumber(job.rows_total), limited),
    el('td', { class: 'text-end', 'data-label': 'With errors' }, formatNumber(job.rows_error)),
    el('td', { class: 'text-end', 'data-label': 'Score' }, job.status === 'done' ? String(job.health_score) : '—'),
    el('td', { 'data-label': 'Uploaded' }, formatDate(job.created_at)));
}

async function load() {
  const older = $('#older');
  older.disabled = true;
  try {
    const query = { limit: PAGE, feed: filter.feed, filename: filter.filename };
    if (oldest) query.before = oldest;
    const answer = await api.jobs(query);
    const list = Array.isArray(answer) ? answer : answer.jobs || [];
    const body = $('#jobs');
    if (!oldest && list.length === 0) {
      const text = filter.feed || filter.filename ? 'No jobs match.' : 'No jobs yet. Upload a file to start.';
      body.replaceChildren(el('tr', {}, el('td', { colspan: '8', class: 'text-body-secondary' }, text)));
    }
    body.append(...list.map(row));
    if (list.length) oldest = list[list.length - 1].created_at;
    older.hidden = list.length < PAGE;
  } catch (err) {
    showError($('#jobs-message'), err);
  } finally {
    older.disabled = false;
  }
}

run(async () => {
  await startPrivatePage();
  if (params.has('deleted')) showNotice($('#jobs-message'), 'The job and its files were deleted.');
  $('#search').value = filter.filename;
  if (filter.feed || filter.filename) {
    const what = filter.feed ? `Uploads of the feed “${filter.feed}”` : `Jobs whose file name contains “${filter.filename}”`;
    $('#jobs-filter').replaceChildren(what + '. ', el('a', { href: '/console/jobs' }, 'Show all jobs'));
    $('#jobs-filter').hidden = false;
  }
  $('#search-form').addEventListener('submit', (event) => {
    event.preventDefault();
    const text = $('#search').value.trim();
    location.assign(text ? '/console/jobs?filename=' + encodeURIComponent(text) : '/console/jobs');
  });
  $('#older').addEventListener('click', load);
  await load();
});
