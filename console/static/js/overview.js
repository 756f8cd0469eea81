// Overview: plan, the month's quota as a bar, the last jobs, and on the free plan how to upgrade.
import { api } from './api.js';
import { formatDay } from './dates.js';
import { $, el, formatNumber, jobRow, run, showError, showNotice, startPrivatePage } from './ui.js';

run(async () => {
  const me = await startPrivatePage();
  $('#plan').textContent = me.plan;
  if (me.email_verified === false) {
    showNotice($('#verify-notice'), `Confirm your e-mail address: open the link in the mail we sent to ${me.email}. Until then you can upload and check files, but not set a webhook or get an API key.`, 'warning');
  }
  const q = me.quota || {};
  const used = q.used || 0;
  const limit = q.limit || 0;
  const pct = limit > 0 ? Math.min(100, Math.round((100 * used) / limit)) : 0;
  $('#quota-text').textContent = `${formatNumber(used)} of ${formatNumber(limit)} records used this month (${pct}%).`;
  const bar = $('#quota-bar');
  bar.setAttribute('aria-valuenow', String(pct));
  bar.setAttribute('aria-valuetext', `${pct}% used`);
  const fill = $('#quota-fill');
  fill.style.width = pct + '%';
  if (pct >= 90) fill.classList.add('bg-danger');
  else if (pct >= 75) fill.classList.add('bg-warning');
  $('#quota-reset').textContent = q.resets_at ? `The quota renews on ${formatDay(q.resets_at)}.` : '';
  if (me.plan === 'free') {
    $('#account-id').textContent = me.account_id;
    $('#upgrade').hidden = false;
  }
  try {
    const jobs = await api.jobs({ limit: 5 });
    const list = Array.isArray(jobs) ? jobs : jobs.jobs || [];
    $('#jobs').replaceChildren(...(list.length
      ? list.slice(0, 5).map((job) => jobRow(job))
      : [el('tr', {}, el('td', { colspan: '6', class: 'text-body-secondary' }, 'No jobs yet. Upload a file to see its report here.'))]));
  } catch (err) {
    showError($('#jobs-error'), err);
  }
});
