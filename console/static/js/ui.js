// Small DOM helpers shared by the pages. Nothing here talks to the network except through api.js.
import { api, ApiError } from './api.js';

// el('td', {class: 'x'}, 'text', child): builds elements without parsing HTML, so values from the
// API or a file are always text.
export function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') node.className = v;
    else if (k === 'text') node.textContent = v;
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v);
    else node.setAttribute(k, v === true ? '' : v);
  }
  for (const c of children.flat(Infinity)) {
    if (c === undefined || c === null || c === false) continue;
    node.append(c instanceof Node ? c : document.createTextNode(String(c)));
  }
  return node;
}

export const $ = (sel, root = document) => root.querySelector(sel);

// Shows an error (an ApiError or any Error) in the given live region, and marks fields the API
// named in "details" as invalid.
export function showError(region, err, form) {
  region.replaceChildren();
  const msg = err instanceof ApiError || err instanceof Error ? err.message : String(err);
  const alert = el('div', { class: 'alert alert-danger mb-0', role: 'alert' }, msg);
  const extra = (err && err.details ? err.details : []).filter((d) => !msg.includes(d.message));
  if (extra.length) {
    alert.append(el('ul', { class: 'mb-0 mt-1' }, extra.map((d) => el('li', {}, `${d.field}: ${d.message}`))));
  }
  region.append(alert);
  if (form && err && err.details) {
    for (const d of err.details) {
      const input = form.elements.namedItem(d.field);
      if (input && input.classList) input.classList.add('is-invalid');
    }
  }
}

export function showNotice(region, text, kind = 'success') {
  region.replaceChildren(el('div', { class: `alert alert-${kind} mb-0`, role: 'status' }, text));
}

export function clearMessages(region, form) {
  region.replaceChildren();
  if (form) for (const i of form.querySelectorAll('.is-invalid')) i.classList.remove('is-invalid');
}

export function formatDate(iso) {
  if (!iso) return '—';
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : d.toLocaleString();
}

export function formatNumber(n) {
  return typeof n === 'number' ? n.toLocaleString() : '—';
}

export function statusBadge(status) {
  const kind = { done: 'success', failed: 'danger', processing: 'primary', queued: 'secondary' }[status] || 'secondary';
  return el('span', { class: `badge text-bg-${kind}` }, status);
}

// A button that copies the value of `input` and says so.
export function copyButton(input, label = 'Copy') {
  const btn = el('button', { type: 'button', class: 'btn btn-secondary' }, label);
  btn.addEventListener('click', async () => {
    try {
      await navigator.clipboard.writeText(input.value);
    } catch {
      input.select();
      document.execCommand('copy');
    }
    btn.textContent = 'Copied';
    setTimeout(() => { btn.textContent = label; }, 2000);
  });
  return btn;
}

// A two-step confirm: the first click shows "Are you sure?" with the real action and Cancel.
export function confirmStep(container, question, actionLabel, action) {
  const region = el('div', { class: 'alert alert-warning d-flex flex-wrap gap-2 align-items-center mt-2', role: 'alertdialog', 'aria-label': question });
  const yes = el('button', { type: 'button', class: 'btn btn-danger btn-sm' }, actionLabel);
  const no = el('button', { type: 'button', class: 'btn btn-outline-secondary btn-sm' }, 'Cancel');
  region.append(el('span', { class: 'me-auto' }, question), yes, no);
  no.addEventListener('click', () => region.remove());
  yes.addEventListener('click', async () => {
    yes.disabled = true;
    try { await action(); } finally { region.remove(); }
  });
  container.replaceChildren(region);
  yes.focus();
}

// For every signed-in page: who is signed in, the log-out button, then the page's content.
export async function startPrivatePage() {
  const me = await api.me();
  const who = $('#who');
  if (who) who.textContent = me.email;
  const logout = $('#logout');
  if (logout) {
    logout.addEventListener('click', async () => {
      logout.disabled = true;
      try { await api.logout(); } catch { /* the session is gone either way */ }
      location.replace('/console/login?logged_out=1');
    });
  }
  $('main').hidden = false;
  return me;
}

// Runs a page's start function; an error before the page could render is shown in #page-error.
export function run(start) {
  start().catch((err) => {
    if (err instanceof ApiError && err.status === 401) return;  // on the way to the login page
    const region = $('#page-error');
    if (region) showError(region, err);
    const main = $('main');
    if (main) main.hidden = false;
  });
}

// The platform templates in the service's order (`platform=all` lists them so).
export const PLATFORM_TEMPLATES = ['marketplace1_tw', 'marketplace2', 'marketplace3', 'search_merchant',
  'social_catalog', 'marketplace1_cross', 'marketplace4', 'marketplace5'];

// A job's channels ([name, readiness] pairs) in the order its `platform` lists them: the first is
// the one whose score is the job's health score. (The `channels` object itself comes with its keys
// in alphabetical order.)
export function channelEntries(job) {
  const channels = job && job.channels && typeof job.channels === 'object' ? job.channels : {};
  const listed = String(job && job.platform || '').trim() === 'all' ? PLATFORM_TEMPLATES
    : String(job && job.platform || '').split(',').map((p) => p.trim()).filter(Boolean);
  const order = [...listed.filter((p) => p in channels), ...Object.keys(channels).filter((p) => !listed.includes(p))];
  return order.map((p) => [p, channels[p]]);
}

// One row of a job list: file (a link to its report), feed (a link to its uploads), status, rows,
// score, upload time; two uploads of the same file differ in feed, time, score or rows.
// data-label: the column's name, shown beside each value when the rows are cards (.jobs-table
// below 768 px).
export function jobRow(job, { withErrors = false } = {}) {
  const link = el('a', { href: '/console/job?id=' + encodeURIComponent(job.id) }, job.filename || job.id);
  const feed = job.feed ? el('a', { href: '/console/jobs?feed=' + encodeURIComponent(job.feed) }, job.feed) : '—';
  return el('tr', {},
    el('td', { class: 'file-cell', 'data-label': 'File' }, link),
    el('td', { class: 'feed-cell', 'data-label': 'Feed' }, feed),
    el('td', { 'data-label': 'Status' }, statusBadge(job.status)),
    el('td', { class: 'text-end', 'data-label': 'Rows' }, formatNumber(job.rows_total)),
    withErrors && el('td', { class: 'text-end', 'data-label': 'With errors' }, formatNumber(job.rows_error)),
    el('td', { class: 'text-end', 'data-label': 'Score' }, job.status === 'done' ? String(job.health_score) : '—'),
    el('td', { 'data-label': 'Uploaded' }, el('time', { datetime: job.created_at || '' }, formatDate(job.created_at))));
}
