// The job page's history (issue 33 point 4): what changed since the previous upload of the same
// feed (new, resolved and still-open issues by code, with the SKUs), and the feed's score trend
// over its last 30 jobs as a chart. Reads the job's summary (which carries feed, previous_job_id
// and changes, computed once by the worker) and the feed's jobs (GET /jobs?feed=…&limit=30).
// Fills <section id="history"> only; the rest of the page is job.js's.
import { api } from './api.js';
import { formatDay } from './dates.js';
import { $, el, formatNumber } from './ui.js';

const SVG = 'http://www.w3.org/2000/svg';
const HISTORY = 30;

function svg(tag, attrs = {}, ...children) {
  const node = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, String(v));
  for (const c of children) node.append(c);
  return node;
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

function jobLink(id, text) {
  return el('a', { href: '/console/job?id=' + encodeURIComponent(id) }, text);
}

function plural(n, one, many) { return `${formatNumber(n)} ${n === 1 ? one : many}`; }

// The score of each job of the feed, oldest first, the current one marked.
// width: the chart's width in CSS pixels, so its text is drawn at its real size on any screen.
function trendChart(jobs, currentId, feed, width) {
  const W = Math.round(Math.max(280, Math.min(640, width))), H = 190, L = 40, R = 14, T = 14, B = 26;
  const x = (i) => (jobs.length === 1 ? L + (W - L - R) / 2 : L + (i * (W - L - R)) / (jobs.length - 1));
  const y = (score) => T + ((100 - score) * (H - T - B)) / 100;
  const grid = [0, 50, 100].map((v) => svg('g', {},
    svg('line', { x1: L, x2: W - R, y1: y(v), y2: y(v), class: 'trend-grid' }),
    svg('text', { x: L - 6, y: y(v) + 4, class: 'trend-label', 'text-anchor': 'end' }, String(v))));
  const points = jobs.map((j, i) => `${x(i)},${y(j.health_score)}`).join(' ');
  const dots = jobs.map((j, i) => {
    const current = j.id === currentId;
    const dot = svg('circle', { cx: x(i), cy: y(j.health_score), r: current ? 6 : 4, class: current ? 'trend-dot trend-current' : 'trend-dot' },
      svg('title', {}, `${formatDay(j.created_at)}: score ${j.health_score}`));
    return dot;
  });
  const last = jobs[jobs.length - 1];
  const lastLabel = svg('text', { x: Math.min(x(jobs.length - 1), W - R), y: Math.max(T + 10, y(last.health_score) - 10), class: 'trend-value', 'text-anchor': 'end' }, String(last.health_score));
  const first = svg('text', { x: L, y: H - 6, class: 'trend-label' }, formatDay(jobs[0].created_at));
  const end = svg('text', { x: W - R, y: H - 6, class: 'trend-label', 'text-anchor': 'end' }, formatDay(last.created_at));
  const chart = svg('svg', { viewBox: `0 0 ${W} ${H}`, class: 'trend-chart', role: 'img', 'aria-labelledby': 'trend-caption' },
    ...grid, svg('polyline', { points, class: 'trend-line' }), ...dots, lastLabel, first, end);
  const table = el('table', { class: 'table table-sm mb-0' },
    el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Uploaded'), el('th', { scope: 'col', class: 'text-end' }, 'Score'))),
    el('tbody', {}, ...jobs.slice().reverse().map((j) => el('tr', {},
      el('td', {}, j.id === currentId ? `${formatDay(j.created_at)} (this upload)` : jobLink(j.id, formatDay(j.created_at))),
      el('td', { class: 'text-end' }, String(j.health_score))))));
  return el('figure', { class: 'trend mb-0' },
    chart,
    el('figcaption', { id: 'trend-caption', class: 'small text-body-secondary' },
      `Health score of the last ${plural(jobs.length, 'upload', 'uploads')} of the feed “${feed}”, oldest first.`),
    el('details', { class: 'small mt-1' }, el('summary', {}, 'Scores as a table'), table));
}

function itemsLine(label, items, more) {
  if (!items || !items.length) return null;
  const extra = more > items.length ? `, and ${formatNumber(more - items.length)} more` : '';
  return el('div', { class: 'small history-items' }, el('span', { class: 'fw-semibold' }, label + ': '), items.join(', ') + extra);
}

function changesTable(changes) {
  const rows = (changes.by_code || []).map((c) => el('tr', { 'data-code': c.code },
    el('th', { scope: 'row', class: 'history-code' },
      el('code', {}, c.code),
      itemsLine('Resolved', c.resolved_items, c.resolved),
      itemsLine('New', c.new_items, c.new)),
    el('td', { class: 'text-end' }, formatNumber(c.resolved)),
    el('td', { class: 'text-end' }, formatNumber(c.new)),
    el('td', { class: 'text-end' }, formatNumber(c.open))));
  return el('div', { class: 'history-table-wrap' }, el('table', { class: 'table table-sm align-top history-table mb-0' },
    el('caption', { class: 'visually-hidden' }, 'Changes since the previous upload, by code'),
    el('thead', {}, el('tr', {},
      el('th', { scope: 'col' }, 'Code'),
      el('th', { scope: 'col', class: 'text-end' }, 'Resolved'),
      el('th', { scope: 'col', class: 'text-end' }, 'New'),
      el('th', { scope: 'col', class: 'text-end' }, 'Still open'))),
    el('tbody', {}, ...rows)));
}

function render(section, summary, previous, jobs) {
  const feed = summary.feed;
  const children = [el('h2', { class: 'h5', id: 'history-title' }, 'Since the last upload')];
  if (summary.max_rows) {
    children.push(el('p', { id: 'history-rows', class: 'alert alert-info py-2' },
      `Only the first ${plural(summary.rows_total, 'row', 'rows')} of this file's ${formatNumber(summary.rows_in_file)} were checked, as asked at the upload.`));
  }
  const c = summary.changes;
  if (c && previous) {
    const keyed = c.keyed_by === 'row' ? 'rows' : c.keyed_by === 'sku' ? 'SKUs' : 'SKUs (rows where there is none)';
    children.push(el('p', { id: 'history-summary', class: 'mb-2' },
      `${plural(c.resolved, 'issue', 'issues')} resolved, ${plural(c.new, 'new issue', 'new issues')} and ${plural(c.open, 'issue', 'issues')} still open since `,
      jobLink(previous.id, `the upload of ${formatDay(previous.created_at)}`),
      `. Issues are matched by code and ${keyed}.`));
    if (c.partial_rows) {
      children.push(el('p', { class: 'small text-body-secondary' }, 'One of the two uploads was checked only for its first rows, so issues in the rows the other one did not check show as new or resolved.'));
    }
    if (c.complete === false) {
      children.push(el('p', { class: 'small text-body-secondary' }, 'Only the stored issues were compared: one of the two uploads had more issues than are kept.'));
    }
  } else {
    children.push(el('p', { id: 'history-summary', class: 'mb-2 text-body-secondary' },
      `This is the first checked upload of the feed “${feed}”. Upload the file again after fixing it to see what changed.`));
  }
  const row = el('div', { class: 'row g-3' });
  if (c && (c.by_code || []).length) row.append(el('div', { class: 'col-12 col-lg-6' }, changesTable(c)));
  if (jobs.length) {
    const cell = el('div', { class: 'col-12 col-lg-6' });
    row.append(cell);
    section.hidden = false;
    section.replaceChildren(...children, row);  // laid out, so the cell's width is known
    // Drawn for the cell's width, and again when it changes (a phone turned, a window resized).
    let drawn = 0;
    const draw = () => {
      const width = cell.clientWidth - 24;
      if (Math.abs(width - drawn) < 8) return;
      drawn = width;
      const open = cell.querySelector('details') && cell.querySelector('details').open;
      cell.replaceChildren(trendChart(jobs, summary.id, feed, width));
      if (open) cell.querySelector('details').open = true;
    };
    draw();
    new ResizeObserver(draw).observe(cell);
    children.length = 0;
  }
  const more = el('p', { class: 'small mt-2 mb-0' },
    el('a', { href: '/console/jobs?feed=' + encodeURIComponent(feed) }, 'All uploads of this feed'));
  if (children.length) section.replaceChildren(...children, row, more);
  else section.append(more);
  section.hidden = false;
}

async function start() {
  const section = $('#history');
  const id = new URLSearchParams(location.search).get('id');
  if (!section || !id) return;
  let summary;
  for (;;) {
    try {
      summary = await api.summary(id);
    } catch {
      return;  // job.js says what is wrong with the job
    }
    if (summary.status === 'done') break;
    if (summary.status === 'failed') return;
    await sleep(1500);
  }
  if (!summary.feed) return;  // a job from before feeds
  let jobs = [];
  try {
    const answer = await api.jobs({ feed: summary.feed, limit: HISTORY });
    jobs = (Array.isArray(answer) ? answer : []).filter((j) => j.status === 'done').reverse();
  } catch {
    jobs = [];
  }
  let previous = null;
  if (summary.previous_job_id) {
    previous = jobs.find((j) => j.id === summary.previous_job_id) || null;
    if (!previous) {
      try { previous = await api.job(summary.previous_job_id); } catch { previous = { id: summary.previous_job_id, created_at: '' }; }
    }
  }
  render(section, summary, previous, jobs);
}

start();
