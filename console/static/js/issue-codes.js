// The issue catalogue (GET /console/api/issue-codes), one section per code, each with the code as
// its id: the target of the report's docs links (/console/issue-codes#INVALID_CURRENCY).
import { api } from './api.js';
import { $, el, run, startPrivatePage } from './ui.js';

function value(v) {
  return v === '(empty)' ? el('span', { class: 'text-body-secondary' }, '(empty)') : el('code', { class: 'value' }, v);
}

run(async () => {
  await startPrivatePage();
  const { issue_codes: codes } = await api.issueCodes();
  $('#codes').replaceChildren(...codes.map((c) => el('section', { id: c.code, class: 'code-entry border-top pt-3 mb-3', 'aria-labelledby': `${c.code}-title` },
    el('h2', { class: 'h5 d-flex flex-wrap gap-2 align-items-center', id: `${c.code}-title` },
      el('span', { class: `badge text-bg-${c.severity === 'error' ? 'danger' : 'warning'}` }, c.severity), c.title, el('code', { class: 'small' }, c.code)),
    el('p', { class: 'small text-body-secondary mb-2' }, `Check type ${c.check_type} · field ${c.fields.join(', ')}${c.fixable ? ' · fixed automatically' : ''}`),
    el('p', { class: 'mb-2' }, el('span', { class: 'fw-semibold' }, 'What it means: '), c.meaning),
    el('p', { class: 'mb-2' }, el('span', { class: 'fw-semibold' }, 'How to fix: '), c.how_to_fix),
    el('p', { class: 'mb-2' }, el('span', { class: 'fw-semibold' }, 'Example: '), value(c.example.before), ' → ', value(c.example.after)),
    c.channel_issues.length ? el('p', { class: 'small mb-0' }, 'Channels call it: ', c.channel_issues.map((i, k) => [k ? '; ' : '', `${i.channel}: ${i.name}`])) : null)));
  if (location.hash) {
    const target = document.getElementById(decodeURIComponent(location.hash.slice(1)));
    if (target) target.scrollIntoView({ block: 'start' });
  }
  document.body.dataset.ready = 'true';
});
