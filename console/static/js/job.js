// One job's report: health score, counters, charts of issues per field and per code, then what to
// fix: one card per code (errors first) with its title, how to fix it, an example, the failing
// values, a link to its docs and a link to its affected items. The affected items are filtered by
// the server (code, field, severity, sku), 50 a page with the API's cursor; at narrow widths the
// rows become cards (console.css). Downloads, and delete after a confirm step. While the job is
// queued or running the page follows it. A job that does not exist (or was deleted) gets a page
// that says so, with no report and no Delete button.
import { Chart, registerables } from '../vendor/chart.js/chart.esm.js';
import { api, ApiError } from './api.js';
import { $, channelEntries, confirmStep, el, formatDate, formatNumber, run, showError, startPrivatePage, statusBadge } from './ui.js';

Chart.register(...registerables);

const PAGE_SIZE = 50;
const FILTERS = ['code', 'field', 'severity', 'sku'];
const id = new URLSearchParams(location.search).get('id') || '';
let summary = { by_field: [], by_code: [] };
let catalogue = new Map();  // code -> the catalogue's entry (GET /console/api/issue-codes)
let filters = readFilters(new URLSearchParams(location.search));
let cursors = [null];       // the cursor of each page seen; the last is the current page's
let nextCursor = null;
let loading = 0;            // the latest load wins
const charts = [];

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

function readFilters(params) {
  const f = {};
  for (const k of FILTERS) f[k] = (params.get(k) || '').trim();
  return f;
}

// The report's own address with these filters: a link a merchant can keep or share.
function reportUrl(f, hash = '') {
  const q = new URLSearchParams({ id });
  for (const k of FILTERS) if (f[k]) q.set(k, f[k]);
  return `/console/job?${q}${hash}`;
}

function counter(label, value, extra) {
  return el('div', { class: 'col-6 col-md-4 col-xl-2' },
    el('div', { class: 'card h-100' }, el('div', { class: 'card-body' },
      el('div', { class: 'small text-body-secondary' }, label),
      el('div', { class: extra || 'fs-4 fw-semibold', 'data-counter': label }, value))));
}

function renderHeader(job) {
  document.title = `${job.filename} · dq console`;
  $('#job-title').textContent = job.filename;
  $('#crumb').textContent = job.filename;
  $('#job-status').replaceChildren(statusBadge(job.status));
  const done = job.status === 'done';
  $('#counters').replaceChildren(
    counter('Health score', done ? String(job.health_score) : '—', 'score'),
    counter('Rows', formatNumber(job.rows_total)),
    counter('Rows with errors', formatNumber(job.rows_error)),
    counter('Rows with warnings only', formatNumber(job.rows_warning)),
    counter('Rows fixed', formatNumber(job.rows_fixed)),
    counter('Issues', formatNumber(job.issues_total ?? (job.stats ? job.stats.errors + job.stats.warnings : undefined))));
  const facts = [`Uploaded ${formatDate(job.created_at)}`, `checks: ${job.check_types}`];
  if (job.platform) facts.push(`platform: ${job.platform}`);
  if (job.format) facts.push(`format: ${job.format}`);
  if (job.encoding) facts.push(`encoding: ${job.encoding}`);
  $('#job-message').replaceChildren(el('p', { class: 'text-body-secondary mb-0' }, facts.join(' · ') + '.'));
  if (job.status === 'failed') {
    $('#job-message').append(el('div', { class: 'alert alert-danger mt-2 mb-0', role: 'alert' }, `The job failed: ${job.error || 'no reason given'}`));
  }
  if (job.issues_truncated) {
    $('#job-message').append(el('div', { class: 'alert alert-info mt-2 mb-0' }, 'This job has more issues than are kept one by one: the counts and charts are exact, the list of affected items shows the first ones.'));
  }
  const cleaned = $('#download-cleaned');
  cleaned.href = api.cleanedUrl(id);
  for (const a of [cleaned, $('#download-issues')]) {
    a.classList.toggle('disabled', !done);
    if (done) a.removeAttribute('aria-disabled'); else a.setAttribute('aria-disabled', 'true');
  }
  updateCsvLink();
  renderChannels(job);
}

// Channel readiness (a job with platform templates, once done): channels as columns, with their
// ready and blocked rows, score and top blockers, each a link to the affected items of its code
// (the report's own filter link). Below 768 px the same, one card per channel (console.css).
function blockerLink(code, rows, channel) {
  const target = { code, field: '', severity: '', sku: '' };
  const a = el('a', { href: reportUrl(target, '#issues-title'), 'data-filter-code': code, 'data-channel': channel },
    `${titleOf(code)}`);
  a.addEventListener('click', (e) => {
    e.preventDefault();
    applyFilters(target, true);
  });
  return el('li', {}, a, el('span', { class: 'small text-body-secondary' }, ` (${code}) · ${formatNumber(rows)} ${rows === 1 ? 'row' : 'rows'}`));
}

function blockerList(c, channel) {
  const top = c.top_blockers || [];
  return top.length ? el('ul', { class: 'blockers' }, top.map((b) => blockerLink(b.code, b.rows, channel)))
    : el('span', { class: 'text-body-secondary' }, 'Nothing blocks a row.');
}

function renderChannels(job) {
  const section = $('#channels');
  const entries = job.platform ? channelEntries(job) : [];
  section.hidden = !entries.length;
  if (!entries.length) return;
  const first = entries[0][0];
  $('#channels-note').textContent = entries.length > 1
    ? `Rows ready to go live on each channel, and what blocks the rest. The health score above is ${first}'s.`
    : 'Rows ready to go live on this channel, and what blocks the rest.';
  const lines = [
    ['Ready rows', (c) => formatNumber(c.ready), 'ready'],
    ['Blocked rows', (c) => formatNumber(c.blocked), 'blocked'],
    ['Score', (c) => String(c.score), 'score'],
    ['Top blockers', (c, name) => blockerList(c, name), 'blockers'],
  ];
  $('#channels-head').replaceChildren(el('tr', {}, el('td', {}),
    ...entries.map(([name]) => el('th', { scope: 'col', 'data-channel': name }, name))));
  $('#channels-body').replaceChildren(...lines.map(([label, value, key]) => el('tr', {},
    el('th', { scope: 'row' }, label),
    ...entries.map(([name, c]) => el('td', { 'data-channel': name, 'data-key': key }, value(c, name))))));
  $('#channels-cards').replaceChildren(...entries.map(([name, c]) => el('article', { class: 'card', 'data-channel': name },
    el('div', { class: 'card-body' },
      el('h3', { class: 'h6 card-title' }, name),
      el('dl', { class: 'row mb-0' }, lines.map(([label, value, key]) => [
        el('dt', { class: 'col-6 fw-normal text-body-secondary' }, label),
        el('dd', { class: key === 'blockers' ? 'col-12' : 'col-6 fw-semibold', 'data-key': key }, value(c, name))]))))));
}

// The CSV download takes the filters shown.
function updateCsvLink() {
  $('#download-issues').href = api.issuesCsvUrl(id, filters);
}

// Errors before warnings, then the most frequent first (the API's order; kept here for summaries
// stored before it).
function ordered(byCode) {
  return (byCode || []).slice().sort((a, b) => (a.severity === b.severity ? b.count - a.count : a.severity === 'error' ? -1 : 1));
}

// Chart labels: the code's title, in lines short enough for a phone's width.
function wrap(text, width = 16) {
  const lines = [];
  let line = '';
  for (const word of String(text).split(/\s+/)) {
    if (line && (line + ' ' + word).length > width) { lines.push(line); line = word; } else line = line ? `${line} ${word}` : word;
  }
  if (line) lines.push(line);
  return lines;
}

const titleOf = (code) => (catalogue.get(code) || {}).title || code;

function renderCharts() {
  for (const c of charts.splice(0)) c.destroy();
  const fields = summary.by_field || [];
  const codes = ordered(summary.by_code).slice(0, 15);
  const style = getComputedStyle(document.body);
  const color = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const narrow = window.matchMedia('(max-width: 575.98px)').matches;
  // Tall enough for every bar and its label lines, whatever the width.
  const height = (rows, lines) => `${Math.max(12, 5 + rows * (lines * 0.9 + 0.9))}rem`;
  $('#chart-fields-box').style.height = height(fields.length, 1);
  $('#chart-codes-box').style.height = height(codes.length, narrow ? 2 : 1);
  const common = { indexAxis: 'y', responsive: true, maintainAspectRatio: false, animation: false,
    scales: { x: { stacked: true, beginAtZero: true, ticks: { precision: 0 } },
      y: { stacked: true, ticks: { autoSkip: false, font: { size: narrow ? 11 : 12 } } } } };
  charts.push(new Chart($('#chart-fields'), {
    type: 'bar',
    data: {
      labels: fields.map((f) => f.field),
      datasets: [
        { label: 'Errors', data: fields.map((f) => f.errors), backgroundColor: color('--bs-danger', '#dc3545') },
        { label: 'Warnings', data: fields.map((f) => f.warnings), backgroundColor: color('--bs-warning', '#ffc107') },
        { label: 'Fixes', data: fields.map((f) => f.fixes), backgroundColor: color('--bs-success', '#198754') },
      ],
    },
    options: { ...common, plugins: { title: { display: true, text: 'Per field' } } },
  }));
  charts.push(new Chart($('#chart-codes'), {
    type: 'bar',
    data: {
      labels: codes.map((c) => wrap(`${titleOf(c.code)} (${c.field})`, narrow ? 18 : 40)),
      datasets: [{ label: 'Issues', data: codes.map((c) => c.count),
        backgroundColor: codes.map((c) => (c.severity === 'error' ? color('--bs-danger', '#dc3545') : color('--bs-warning', '#ffc107'))) }],
    },
    options: { ...common, plugins: { legend: { display: false }, title: { display: true, text: 'Per code (errors red, warnings yellow)' } } },
  }));
  $('#chart-fields').setAttribute('aria-label', 'Issues per field: ' + fields.map((f) => `${f.field} ${f.errors} errors, ${f.warnings} warnings, ${f.fixes} fixes`).join('; '));
  $('#chart-codes').setAttribute('aria-label', 'Issues per code: ' + codes.map((c) => `${titleOf(c.code)} (${c.code}, ${c.field}) ${c.count}`).join('; '));
  markLabelsFit();
}

// Whether every y-axis label fits beside its chart (none runs off the canvas): measured with the
// chart's own font, written on the canvas for the browser test to read.
function markLabelsFit() {
  for (const chart of charts) {
    const y = chart.scales.y;
    const ctx = chart.ctx;
    ctx.save();
    ctx.font = `${y.options.ticks.font.size || 12}px ${Chart.defaults.font.family}`;
    const widest = Math.max(0, ...y.ticks.flatMap((t) => [].concat(t.label)).map((l) => ctx.measureText(l).width));
    ctx.restore();
    chart.canvas.dataset.labelsFit = String(y.left >= 0 && widest <= y.width);
  }
}

function valueCode(v) {
  const text = String(v ?? '');
  if (text === '' || text === '(empty)') return el('span', { class: 'text-body-secondary' }, '(empty)');
  return el('code', { class: 'value', title: text.length > 80 ? text : null }, text.length > 80 ? text.slice(0, 80) + '…' : text);
}

// " → ", read out as words.
function arrow(words) {
  return [el('span', { 'aria-hidden': 'true' }, ' → '), el('span', { class: 'visually-hidden' }, ` ${words} `)];
}

function severityBadge(severity) {
  return el('span', { class: `badge text-bg-${severity === 'error' ? 'danger' : 'warning'}` }, severity);
}

function renderCodes() {
  const cards = ordered(summary.by_code).map((c) => {
    const info = catalogue.get(c.code) || {};
    const target = { code: c.code, field: c.field, severity: '', sku: '' };
    const show = el('a', { class: 'btn btn-primary btn-sm', href: reportUrl(target, '#issues-title'), 'data-filter-code': c.code, 'data-filter-field': c.field },
      `Show the ${formatNumber(c.count)} affected ${c.count === 1 ? 'item' : 'items'}`);
    show.addEventListener('click', (e) => {
      e.preventDefault();
      applyFilters(target, true);
    });
    const examples = (c.examples || []).map((e, i) => [i ? '; ' : '', `row ${e.row}: `, valueCode(e.original_value)]);
    return el('article', { class: 'card code-card', 'data-code': c.code },
      el('div', { class: 'card-body' },
        el('h3', { class: 'h6 card-title d-flex flex-wrap gap-2 align-items-center' }, severityBadge(c.severity), info.title || c.code),
        el('p', { class: 'small text-body-secondary mb-2' }, el('code', {}, c.code), ` on ${c.field} · ${formatNumber(c.count)} ${c.count === 1 ? 'issue' : 'issues'}`),
        info.how_to_fix && el('p', { class: 'mb-2' }, el('span', { class: 'fw-semibold' }, 'How to fix: '), info.how_to_fix),
        info.example && el('p', { class: 'small mb-2 example' }, el('span', { class: 'fw-semibold' }, 'Example: '),
          valueCode(info.example.before), arrow('becomes'), valueCode(info.example.after)),
        examples.length && el('p', { class: 'small mb-2 value-cell' }, el('span', { class: 'fw-semibold' }, 'In this file: '), examples),
        el('div', { class: 'd-flex flex-wrap gap-2 align-items-center' }, show,
          el('a', { href: '/console/issue-codes#' + encodeURIComponent(c.code), class: 'small' }, `About ${c.code} in the docs`))));
  });
  $('#examples').replaceChildren(...(cards.length ? cards : [el('p', { class: 'text-body-secondary' }, 'No issues: every row passed.')]));
}

function fillSelect(select, label, values, current) {
  select.replaceChildren(el('option', { value: '' }, `All ${label}`),
    ...values.map(([v, text]) => el('option', { value: v, selected: v === current }, text)));
  if (current && !values.some(([v]) => v === current)) select.append(el('option', { value: current, selected: true }, current));
}

function renderFilterControls() {
  const codes = [...new Set(ordered(summary.by_code).map((c) => c.code))];
  fillSelect($('#filter-field'), 'fields', (summary.by_field || []).map((f) => [f.field, f.field]), filters.field);
  fillSelect($('#filter-code'), 'codes', codes.map((c) => [c, `${titleOf(c)} (${c})`]), filters.code);
  fillSelect($('#filter-severity'), 'severities', [['error', 'error'], ['warning', 'warning']], filters.severity);
  $('#filter-sku').value = filters.sku;
}

// The number of issues the filters match, when the summary can say it exactly (no SKU filter).
function matchingCount() {
  if (filters.sku) return null;
  let n = 0;
  for (const c of summary.by_code || []) {
    if ((!filters.code || c.code === filters.code) && (!filters.field || c.field === filters.field) &&
        (!filters.severity || c.severity === filters.severity)) n += c.count;
  }
  return n;
}

function issueRow(i) {
  const info = catalogue.get(i.code) || {};
  const fixed = i.fixed_value !== null && i.fixed_value !== undefined;
  return el('tr', { 'data-code': i.code },
    el('td', { 'data-label': 'Item', class: 'item-cell' },
      i.sku ? el('div', { class: 'fw-semibold text-break' }, i.sku) : el('div', { class: 'text-body-secondary' }, 'no SKU'),
      i.title && el('div', { class: 'small text-break' }, i.title),
      el('div', { class: 'small text-body-secondary' }, `row ${i.issue_row}`)),
    el('td', { 'data-label': 'Field' }, i.field),
    el('td', { 'data-label': 'Problem' },
      el('div', { class: 'd-flex flex-wrap gap-1 align-items-center' }, severityBadge(i.severity), el('span', {}, info.title || i.code)),
      el('div', { class: 'small' }, i.message),
      el('code', { class: 'small' }, i.code)),
    el('td', { 'data-label': 'Value → fix', class: 'value-cell' },
      valueCode(i.original_value), fixed ? [arrow('fixed to'), valueCode(i.fixed_value)] : null),
    el('td', { 'data-label': 'What to do', class: 'small' }, info.how_to_fix || i.message));
}

async function loadIssues() {
  const mine = ++loading;
  const body = $('#issues');
  body.setAttribute('aria-busy', 'true');
  $('#issues-error').replaceChildren();
  const cursor = cursors[cursors.length - 1];
  let page;
  try {
    page = await api.issues(id, { limit: PAGE_SIZE, cursor: cursor || undefined, ...filters });
  } catch (err) {
    if (mine !== loading) return;
    body.setAttribute('aria-busy', 'false');
    showError($('#issues-error'), err);
    return;
  }
  if (mine !== loading) return;
  const shown = page.issues || [];
  nextCursor = page.next_cursor || null;
  const count = matchingCount();
  const from = (cursors.length - 1) * PAGE_SIZE;
  const counted = $('#issues-count');
  if (count !== null) {
    counted.textContent = `${count.toLocaleString()} ${count === 1 ? 'issue matches' : 'issues match'}.`;
    counted.dataset.count = String(count);
  } else {
    counted.textContent = shown.length || cursors.length > 1 ? `Issues for SKU ${filters.sku}.` : `No issues for SKU ${filters.sku}.`;
    delete counted.dataset.count;
  }
  body.replaceChildren(...(shown.length ? shown.map(issueRow)
    : [el('tr', {}, el('td', { colspan: '5', class: 'text-body-secondary' }, nextCursor ? 'No matches in this part of the issues: go to the next page.' : 'No issues match these filters.'))]));
  $('#page-info').textContent = shown.length
    ? `Issues ${from + 1}–${from + shown.length}${count !== null ? ` of ${count.toLocaleString()}` : ''}, page ${cursors.length}` : '';
  $('#prev-page').disabled = cursors.length <= 1;
  $('#next-page').disabled = !nextCursor;
  body.setAttribute('aria-busy', 'false');
}

// New filters: back to the first page, the address and the CSV link follow, then the list.
function applyFilters(next, focusList = false) {
  filters = { ...filters, ...next };
  cursors = [null];
  history.replaceState(null, '', reportUrl(filters, focusList ? '#issues-title' : ''));
  renderFilterControls();
  updateCsvLink();
  const loaded = loadIssues();
  if (focusList) {
    const heading = $('#issues-title');
    heading.scrollIntoView({ block: 'start' });
    heading.focus({ preventScroll: true });
  }
  return loaded;
}

function wireControls() {
  for (const name of ['field', 'code', 'severity']) {
    $(`#filter-${name}`).addEventListener('change', (e) => applyFilters({ [name]: e.target.value }));
  }
  $('#filters').addEventListener('submit', (e) => {
    e.preventDefault();
    applyFilters({ sku: $('#filter-sku').value.trim() });
  });
  $('#prev-page').addEventListener('click', () => { if (cursors.length > 1) { cursors.pop(); loadIssues(); } });
  $('#next-page').addEventListener('click', () => { if (nextCursor) { cursors.push(nextCursor); loadIssues(); } });
  $('#delete-job').addEventListener('click', () => confirmStep($('#delete-confirm'),
    'Delete this job, its file, report and cleaned file? This cannot be undone.', 'Yes, delete the job', async () => {
      try {
        await api.deleteJob(id);
        location.replace('/console/jobs?deleted=1');
      } catch (err) { showError($('#delete-confirm'), err); }
    }));
  let width = window.innerWidth;
  window.addEventListener('resize', () => {
    if (Math.abs(window.innerWidth - width) < 40 || !charts.length) return;
    width = window.innerWidth;
    renderCharts();
  });
}

// No such job (never was, another account's, or deleted): say so, and offer the way on.
function showMissing() {
  document.title = 'Job not found · dq console';
  $('#crumb').textContent = 'Not found';
  $('#report').remove();
  $('#job-missing').hidden = false;
  document.body.dataset.ready = 'true';
}

async function loadCatalogue() {
  try {
    const c = await api.issueCodes();
    catalogue = new Map((c.issue_codes || []).map((i) => [i.code, i]));
  } catch (err) {
    if (!(err instanceof ApiError) || (err.status !== 404 && err.status !== 405)) throw err;
  }
}

async function showReport(job) {
  summary = await api.summary(id);
  renderCodes();
  renderFilterControls();
  await loadIssues();
  $('#charts-section').hidden = job.status !== 'done';
  if (job.status === 'done') renderCharts();
  if (location.hash === '#issues-title') $('#issues-title').scrollIntoView({ block: 'start' });
}

run(async () => {
  await startPrivatePage();
  wireControls();
  if (!id) { showMissing(); return; }
  let job;
  try {
    [job] = await Promise.all([api.job(id), loadCatalogue()]);
  } catch (err) {
    if (err instanceof ApiError && err.status === 404) { showMissing(); return; }
    throw err;
  }
  renderHeader(job);
  if (job.status === 'queued' || job.status === 'processing') {
    $('#progress-section').hidden = false;
    while (job.status === 'queued' || job.status === 'processing') {
      $('#job-progress-text').textContent = job.status === 'queued' ? 'Waiting for a worker…' : 'Checking the rows…';
      await sleep(1000);
      try {
        job = await api.job(id);
      } catch (err) {
        if (err instanceof ApiError && err.status === 404) { showMissing(); return; }
        throw err;
      }
    }
    $('#progress-section').hidden = true;
    renderHeader(job);
  }
  await showReport(job);
  document.body.dataset.ready = 'true';
});
