// Upload: pick or drop a file (its size checked against the limit before anything is sent), see
// the mapping the service inferred (POST /jobs/preview), how many rows it has and what it uses of
// the month's quota, correct the mapping, choose checks, channels (several, or all) and feed, and
// start the job from the preview's kept upload (the file is sent once); then follow it until it
// ends. Over the quota, the page offers to check only the first rows that are left (max_rows).
// A job with channels ends with each channel's readiness.
import { api } from './api.js';
import { formatDay, formatMegabytes } from './dates.js';
import { $, channelEntries, clearMessages, el, formatNumber, PLATFORM_TEMPLATES, run, showError, showNotice, startPrivatePage, statusBadge } from './ui.js';

// The specification's standard field names, check types and platform templates (identifiers).
const FIELDS = ['sku', 'title', 'description', 'price', 'compare_at_price', 'cost_price', 'currency',
  'availability', 'image_url', 'brand', 'category', 'gtin', 'weight', 'hs_code', 'country_of_origin',
  'vat_number', 'email', 'phone', 'country', 'stock_qty', 'reorder_point', 'expiry_date', 'warehouse_id'];
const CHECK_TYPES = ['product', 'price', 'shipping', 'customer', 'inventory'];
const PLATFORMS = PLATFORM_TEMPLATES;

let file = null;
let preview = null;
let limits = null;  // GET /jobs/limits: max_file_bytes, quota

function rowsWord(n) { return `${formatNumber(n)} ${n === 1 ? 'row' : 'rows'}`; }

// The month's quota as a sentence.
function quotaSentence(q) {
  if (!q) return '';
  return `This month you have ${rowsWord(q.remaining)} left of ${formatNumber(q.limit)}; the quota renews on ${formatDay(q.renews_on)}.`;
}

// After the preview: what the upload uses of the quota, and, over it, the offer of the first rows.
function renderQuota() {
  const choice = $('#quota-choice');
  const box = $('#first-rows');
  choice.hidden = true;
  box.checked = false;
  const q = preview && preview.quota;
  if (!q || typeof preview.rows !== 'number') return;
  // Over the quota, the choice below says it all.
  $('#quota-line').textContent = preview.within_quota
    ? `Checking all ${rowsWord(preview.rows)} uses ${formatNumber(preview.rows)} of the ${rowsWord(q.remaining)} left this month.`
    : '';
  if (preview.within_quota) return;
  choice.hidden = false;
  if (q.remaining > 0) {
    $('#quota-choice-text').textContent = `This file has ${rowsWord(preview.rows)}, more than the ${rowsWord(q.remaining)} left of this month's quota. You can check its first ${rowsWord(q.remaining)} now, or wait until the quota renews on ${formatDay(q.renews_on)}.`;
    $('#first-rows-label').textContent = `Check only the first ${rowsWord(q.remaining)}`;
    $('#first-rows-choice').hidden = false;
    box.checked = true;
  } else {
    $('#quota-choice-text').textContent = `This file has ${rowsWord(preview.rows)}, and no rows are left of this month's quota. It renews on ${formatDay(q.renews_on)}.`;
    $('#first-rows-choice').hidden = true;
  }
}

function setupChoices() {
  $('#check-types').replaceChildren(...CHECK_TYPES.map((t) => el('div', { class: 'form-check' },
    el('input', { class: 'form-check-input', type: 'checkbox', id: `check-${t}`, name: 'check_types', value: t, checked: t === 'product' }),
    el('label', { class: 'form-check-label', for: `check-${t}` }, t))));
  // Channels: any of the templates, or all of them ("All channels" ticks every one).
  const all = $('#channel-all');
  $('#channel-list').replaceChildren(...PLATFORMS.map((p) => el('div', { class: 'form-check' },
    el('input', { class: 'form-check-input', type: 'checkbox', id: `channel-${p}`, name: 'platform', value: p }),
    el('label', { class: 'form-check-label', for: `channel-${p}` }, p))));
  const boxes = () => [...document.querySelectorAll('#channel-list input[name=platform]')];
  all.addEventListener('change', () => { for (const b of boxes()) b.checked = all.checked; });
  $('#channel-list').addEventListener('change', () => { all.checked = boxes().every((b) => b.checked); });
}

// The platform parameter: "" (none), the chosen templates in the list's order, or "all".
function chosenPlatforms() {
  const chosen = [...document.querySelectorAll('#channel-list input[name=platform]:checked')].map((b) => b.value);
  return chosen.length === PLATFORMS.length ? 'all' : chosen.join(',');
}

// After a job with channels: per channel its ready and blocked rows, score and top blockers, each
// blocker a link to its affected items in the report (as the report's own matrix does).
async function renderReadiness(job) {
  const section = $('#readiness');
  const entries = job.status === 'done' ? channelEntries(job) : [];
  section.hidden = !entries.length;
  if (!entries.length) return;
  $('#readiness-note').textContent = entries.length > 1
    ? `Rows ready to go live on each channel, and what blocks the rest. The health score is ${entries[0][0]}'s.`
    : 'Rows ready to go live on this channel, and what blocks the rest.';
  const report = (code) => `/console/job?${new URLSearchParams({ id: job.id, code })}#issues-title`;
  // Blockers by their titles, as the report names them (the code itself beside; the code alone
  // when the catalogue cannot be read).
  let titles = new Map();
  try {
    titles = new Map(((await api.issueCodes()).issue_codes || []).map((c) => [c.code, c.title]));
  } catch { /* the codes say it too */ }
  $('#readiness-cards').replaceChildren(...entries.map(([name, c]) => {
    const top = c.top_blockers || [];
    const blockers = top.length
      ? el('ul', { class: 'blockers' }, top.map((b) => el('li', {},
        el('a', { href: report(b.code), 'data-filter-code': b.code, 'data-channel': name }, titles.get(b.code) || b.code),
        el('span', { class: 'small text-body-secondary' }, ` (${b.code}) · ${rowsWord(b.rows)}`))))
      : el('span', { class: 'text-body-secondary' }, 'Nothing blocks a row.');
    return el('article', { class: 'card', 'data-channel': name }, el('div', { class: 'card-body' },
      el('h4', { class: 'h6 card-title' }, name),
      el('dl', { class: 'row mb-0' },
        el('dt', { class: 'col-6 fw-normal text-body-secondary' }, 'Ready rows'),
        el('dd', { class: 'col-6 fw-semibold', 'data-key': 'ready' }, formatNumber(c.ready)),
        el('dt', { class: 'col-6 fw-normal text-body-secondary' }, 'Blocked rows'),
        el('dd', { class: 'col-6 fw-semibold', 'data-key': 'blocked' }, formatNumber(c.blocked)),
        el('dt', { class: 'col-6 fw-normal text-body-secondary' }, 'Score'),
        el('dd', { class: 'col-6 fw-semibold', 'data-key': 'score' }, String(c.score)),
        el('dt', { class: 'col-12 fw-normal text-body-secondary' }, 'Top blockers'),
        el('dd', { class: 'col-12 mb-0', 'data-key': 'blockers' }, blockers))));
  }));
}

function renderMapping() {
  const byColumn = {};
  for (const [field, column] of Object.entries(preview.mapping || {})) byColumn[column] = field;
  const rows = (preview.columns || []).map((column, i) => {
    const id = `map-${i}`;
    const select = el('select', { class: 'form-select form-select-sm', id, 'data-column': column },
      el('option', { value: '' }, 'not checked'),
      ...FIELDS.map((f) => el('option', { value: f, selected: byColumn[column] === f }, f)));
    const samples = (preview.sample_rows || []).map((r) => (Array.isArray(r) ? r[i] : r[column]))
      .filter((v) => v !== undefined && v !== null && v !== '').slice(0, 3).join(', ');
    return el('tr', {},
      el('th', { scope: 'row' }, el('label', { for: id, class: 'fw-normal' }, column)),
      el('td', { class: 'value-cell small text-body-secondary' }, samples),
      el('td', {}, select));
  });
  $('#mapping').replaceChildren(...rows);
  const facts = [];
  if (preview.format) facts.push(`Format: ${preview.format}`);
  if (preview.encoding) facts.push(`encoding: ${preview.encoding}`);
  facts.push(`${(preview.columns || []).length} columns`);
  $('#preview-facts').textContent = facts.join(', ') + '.';
  // What the inferred mapping left out on purpose (a weight in tonnes, say), in the service's words.
  const notes = preview.mapping_notes || [];
  $('#mapping-notes').replaceChildren(...notes.map((n) => el('li', {}, n)));
  $('#mapping-notes').hidden = notes.length === 0;
  $('#mapping-section').hidden = false;
}

function currentMapping() {
  const mapping = {};
  for (const select of document.querySelectorAll('#mapping select')) {
    if (!select.value) continue;
    mapping[select.value] = select.dataset.column;
  }
  return mapping;
}

async function choose(chosen) {
  file = null;
  preview = null;
  $('#mapping-section').hidden = true;
  $('#quota-choice').hidden = true;
  const message = $('#preview-message');
  // The size is checked here, before anything is sent.
  if (limits && chosen.size > limits.max_file_bytes) {
    showError(message, new Error(`${chosen.name} is ${formatMegabytes(chosen.size)}; a file may be at most ${formatMegabytes(limits.max_file_bytes)}. Split it into smaller files and upload each.`));
    $('#file').value = '';
    return;
  }
  file = chosen;
  showNotice(message, `Reading ${file.name}…`, 'info');
  const form = new FormData();
  form.append('file', file, file.name);
  try {
    preview = await api.preview(form);
    const rows = typeof preview.rows === 'number' ? `${rowsWord(preview.rows)} and ` : '';
    showNotice(message, `${file.name}: ${rows}${(preview.columns || []).length} columns found. Check the mapping below.`, 'success');
    renderMapping();
    renderQuota();
  } catch (err) {
    if (err.status === 404 || err.status === 405) {
      showNotice(message, `${file.name} is ready. The mapping will be inferred from its header when the job starts.`, 'info');
    } else {
      showError(message, err);
    }
  }
}

function wireDropzone() {
  const zone = $('#dropzone');
  const input = $('#file');
  input.addEventListener('change', () => { if (input.files[0]) choose(input.files[0]); });
  for (const name of ['dragenter', 'dragover']) {
    zone.addEventListener(name, (e) => { e.preventDefault(); zone.classList.add('dragging'); });
  }
  for (const name of ['dragleave', 'drop']) {
    zone.addEventListener(name, (e) => { e.preventDefault(); zone.classList.remove('dragging'); });
  }
  zone.addEventListener('drop', (e) => {
    const dropped = e.dataTransfer && e.dataTransfer.files[0];
    if (dropped) choose(dropped);
  });
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

async function follow(job) {
  $('#progress-section').hidden = false;
  $('#readiness').hidden = true;
  const text = $('#progress-text');
  const link = el('a', { href: '/console/job?id=' + encodeURIComponent(job.id), class: 'btn btn-primary' }, 'Open the report');
  $('#progress-link').replaceChildren(link);
  for (;;) {
    text.replaceChildren(statusBadge(job.status), ` ${job.filename}: ${
      { queued: 'waiting for a worker…', processing: 'checking…', done: job.max_rows ? `done: its first ${rowsWord(job.rows_total)} of ${formatNumber(job.rows_in_file)} were checked.` : 'done.', failed: `failed: ${job.error || ''}` }[job.status] || job.status}`);
    if (job.status === 'done' || job.status === 'failed') break;
    await sleep(1000);
    job = await api.job(job.id);
  }
  $('#progress-fill').classList.remove('progress-bar-animated', 'progress-bar-striped');
  if (job.status === 'failed') $('#progress-fill').classList.add('bg-danger');
  else $('#progress-fill').classList.add('bg-success');
  await renderReadiness(job);
  link.focus();
}

run(async () => {
  await startPrivatePage();
  setupChoices();
  wireDropzone();
  try {
    limits = await api.limits();
    $('#size-limit').textContent = `Files may be up to ${formatMegabytes(limits.max_file_bytes)}.`;
    $('#quota-line').textContent = quotaSentence(limits.quota);
  } catch {
    limits = null;  // the service checks the size anyway
  }
  const form = $('#upload-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const errors = $('#upload-error');
    clearMessages(errors, form);
    if (!file) {
      showError(errors, new Error('Choose a file first.'));
      $('#file').focus();
      return;
    }
    const checks = [...form.querySelectorAll('input[name=check_types]:checked')].map((c) => c.value);
    if (!checks.length) {
      showError(errors, new Error('Choose at least one check type.'));
      return;
    }
    const options = { check_types: checks.join(',') };
    if (preview) options.mapping = JSON.stringify(currentMapping());
    const platform = chosenPlatforms();
    if (platform) options.platform = platform;
    const feed = form.feed.value.trim();
    if (feed) options.feed = feed;
    if (preview && preview.quota && !preview.within_quota && $('#first-rows').checked && preview.quota.remaining > 0) {
      options.max_rows = String(preview.quota.remaining);
    }
    // The file itself, only when the preview did not keep it (or no longer has it).
    const sendFile = () => {
      const body = new FormData();
      body.append('file', file, file.name);
      for (const [k, v] of Object.entries(options)) body.append(k, v);
      return api.upload(body);
    };
    const start = $('#start');
    start.disabled = true;
    try {
      let job;
      if (preview && preview.upload_id) {
        try {
          job = await api.start({ upload_id: preview.upload_id, ...options });
        } catch (err) {
          if (!/^upload_id:/.test(err.message)) throw err;
          job = await sendFile();  // kept too long: sent again, once
        }
      } else {
        job = await sendFile();
      }
      await follow(job);
    } catch (err) {
      showError(errors, err);
    } finally {
      start.disabled = false;
    }
  });
});
