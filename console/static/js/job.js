// One job's report: health score, counters, charts of issues per field and per code, failing-value
// examples, the issues table (filters by field, code and severity; pages of 50), downloads, and
// delete after a confirm step. While the job is queued or running the page follows it.
import { Chart, registerables } from '../vendor/chart.js/chart.esm.js';
import { api } from './api.js';
import { $, confirmStep, el, formatDate, formatNumber, run, showError, startPrivatePage, statusBadge } from './ui.js';

Chart.register(...registerables);

const PAGE_SIZE = 50;
const FETCH_SIZE = 5000;
const id = new URLSearchParams(location.search).get('id') || '';
let issues = [];
let filtered = [];
let page = 0;
const charts = [];

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

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
    $('#job-message').append(el('div', { class: 'alert alert-info mt-2 mb-0' }, 'This job has more issues than are kept one by one: the counts and charts are exact, the table shows the first ones.'));
  }
  const cleaned = $('#download-cleaned');
  const csv = $('#download-issues');
  cleaned.href = api.cleanedUrl(id);
  csv.href = api.issuesCsvUrl(id);
  for (const a of [cleaned, csv]) {
    a.classList.toggle('disabled', !done);
    if (done) a.removeAttribute('aria-disabled'); else a.setAttribute('aria-disabled', 'true');
  }
}

async function loadIssues() {
  issues = [];
  for (let offset = 0; ; offset += FETCH_SIZE) {
    const pageOf = await api.issues(id, offset, FETCH_SIZE);
    issues.push(...(pageOf.issues || []));
    if (!pageOf.issues || pageOf.issues.length < FETCH_SIZE || issues.length >= pageOf.total) break;
  }
}

// The summary from the API; for a service without the summary endpoint, the same numbers counted
// from the issues.
async function loadSummary() {
  try {
    return await api.summary(id);
  } catch (err) {
    if (err.status !== 404 && err.status !== 405) throw err;
    const byField = new Map();
    const byCode = new Map();
    for (const i of issues) {
      const f = byField.get(i.field) || { field: i.field, errors: 0, warnings: 0, fixes: 0 };
      if (i.severity === 'error') f.errors += 1; else f.warnings += 1;
      if (i.fixed_value !== null && i.fixed_value !== undefined) f.fixes += 1;
      byField.set(i.field, f);
      const key = `${i.code} ${i.field}`;
      const c = byCode.get(key) || { code: i.code, field: i.field, severity: i.severity, count: 0, examples: [] };
      c.count += 1;
      if (c.examples.length < 5) c.examples.push({ row: i.issue_row, original_value: i.original_value });
      byCode.set(key, c);
    }
    return { by_field: [...byField.values()], by_code: [...byCode.values()].sort((a, b) => b.count - a.count) };
  }
}

function renderCharts(summary) {
  for (const c of charts.splice(0)) c.destroy();
  const fields = summary.by_field || [];
  const codes = (summary.by_code || []).slice().sort((a, b) => b.count - a.count).slice(0, 15);
  const style = getComputedStyle(document.body);
  const color = (name, fallback) => style.getPropertyValue(name).trim() || fallback;
  const common = { indexAxis: 'y', responsive: true, maintainAspectRatio: false, animation: false,
    scales: { x: { stacked: true, beginAtZero: true, ticks: { precision: 0 } }, y: { stacked: true } } };
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
      labels: codes.map((c) => `${c.code} · ${c.field}`),
      datasets: [{ label: 'Issues', data: codes.map((c) => c.count),
        backgroundColor: codes.map((c) => (c.severity === 'error' ? color('--bs-danger', '#dc3545') : color('--bs-warning', '#ffc107'))) }],
    },
    options: { ...common, plugins: { legend: { display: false }, title: { display: true, text: 'Per code' } } },
  }));
  $('#chart-fields').setAttribute('aria-label', 'Issues per field: ' + fields.map((f) => `${f.field} ${f.errors} errors, ${f.warnings} warnings, ${f.fixes} fixes`).join('; '));
  $('#chart-codes').setAttribute('aria-label', 'Issues per code: ' + codes.map((c) => `${c.code} ${c.count}`).join('; '));
}

function renderExamples(summary) {
  const rows = (summary.by_code || []).map((c) => el('tr', { 'data-code': c.code },
    el('td', {}, el('code', {}, c.code)),
    el('td', {}, c.field),
    el('td', {}, c.severity),
    el('td', { class: 'text-end' }, formatNumber(c.count)),
    el('td', { class: 'value-cell small' }, (c.examples || []).map((e, i) => [i ? '; ' : '', `row ${e.row}: `, el('code', {}, e.original_value === '' ? '(empty)' : shortValue(e.original_value))]))));
  $('#examples').replaceChildren(...(rows.length ? rows : [el('tr', {}, el('td', { colspan: '5', class: 'text-body-secondary' }, 'No issues: every row passed.'))]));
}

function fillSelect(select, label, values) {
  const current = select.value;
  select.replaceChildren(el('option', { value: '' }, `All ${label}`), ...values.map((v) => el('option', { value: v, selected: v === current }, v)));
}

function applyFilters() {
  const field = $('#filter-field').value;
  const code = $('#filter-code').value;
  const severity = $('#filter-severity').value;
  filtered = issues.filter((i) => (!field || i.field === field) && (!code || i.code === code) && (!severity || i.severity === severity));
  page = 0;
  renderIssues();
}

// Long values (a 260-character title) are cut in the table; the whole value is in the tooltip
// and in the downloads.
function shortValue(v) {
  const text = String(v);
  return text.length > 80 ? el('span', { title: text }, text.slice(0, 80) + '…') : text;
}

function renderIssues() {
  const pages = Math.max(1, Math.ceil(filtered.length / PAGE_SIZE));
  page = Math.min(page, pages - 1);
  const from = page * PAGE_SIZE;
  const shown = filtered.slice(from, from + PAGE_SIZE);
  $('#issues-count').textContent = `${filtered.length.toLocaleString()} ${filtered.length === 1 ? 'issue matches' : 'issues match'}.`;
  $('#issues-count').dataset.count = String(filtered.length);
  $('#issues').replaceChildren(...shown.map((i) => el('tr', {},
    el('td', { class: 'text-end' }, String(i.issue_row)),
    el('td', {}, el('span', { class: `badge text-bg-${i.severity === 'error' ? 'danger' : 'warning'}` }, i.severity)),
    el('td', {}, i.field),
    el('td', {}, el('code', {}, i.code)),
    el('td', {}, i.message),
    el('td', { class: 'value-cell' }, i.original_value === '' ? el('span', { class: 'text-body-secondary' }, '(empty)') : shortValue(i.original_value)),
    el('td', { class: 'value-cell' }, i.fixed_value === null || i.fixed_value === undefined ? '' : shortValue(i.fixed_value)))));
  $('#page-info').textContent = filtered.length ? `Issues ${from + 1}–${from + shown.length} of ${filtered.length}, page ${page + 1} of ${pages}` : '';
  $('#prev-page').disabled = page === 0;
  $('#next-page').disabled = page >= pages - 1;
}

function wireControls() {
  for (const s of ['#filter-field', '#filter-code', '#filter-severity']) $(s).addEventListener('change', applyFilters);
  $('#prev-page').addEventListener('click', () => { page -= 1; renderIssues(); });
  $('#next-page').addEventListener('click', () => { page += 1; renderIssues(); });
  $('#delete-job').addEventListener('click', () => confirmStep($('#delete-confirm'),
    'Delete this job, its file, report and cleaned file? This cannot be undone.', 'Yes, delete the job', async () => {
      try {
        await api.deleteJob(id);
        location.replace('/console/jobs?deleted=1');
      } catch (err) { showError($('#delete-confirm'), err); }
    }));
}

async function showReport(job) {
  await loadIssues();
  const summary = await loadSummary();
  renderCharts(summary);
  renderExamples(summary);
  fillSelect($('#filter-field'), 'fields', [...new Set(issues.map((i) => i.field))].sort());
  fillSelect($('#filter-code'), 'codes', [...new Set(issues.map((i) => i.code))].sort());
  fillSelect($('#filter-severity'), 'severities', ['error', 'warning']);
  applyFilters();
  $('#charts-section').hidden = job.status !== 'done';
}

run(async () => {
  await startPrivatePage();
  wireControls();
  if (!id) throw new Error('No job was named: open a job from the job list.');
  let job = await api.job(id);
  renderHeader(job);
  if (job.status === 'queued' || job.status === 'processing') {
    $('#progress-section').hidden = false;
    while (job.status === 'queued' || job.status === 'processing') {
      $('#job-progress-text').textContent = job.status === 'queued' ? 'Waiting for a worker…' : 'Checking the rows…';
      await sleep(1000);
      job = await api.job(id);
    }
    $('#progress-section').hidden = true;
    renderHeader(job);
  }
  await showReport(job);
  document.body.dataset.ready = 'true';
});
