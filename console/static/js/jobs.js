// The job list, newest first, 20 at a time; "Older jobs" pages with ?before=<created_at>.
import { api } from './api.js';
import { $, el, jobRow, run, showError, showNotice, startPrivatePage } from './ui.js';

const PAGE = 20;
let oldest = null;

async function load() {
  const older = $('#older');
  older.disabled = true;
  try {
    const answer = await api.jobs(oldest ? { before: oldest, limit: PAGE } : { limit: PAGE });
    const list = Array.isArray(answer) ? answer : answer.jobs || [];
    const body = $('#jobs');
    if (!oldest && list.length === 0) {
      body.replaceChildren(el('tr', {}, el('td', { colspan: '6', class: 'text-body-secondary' }, 'No jobs yet. Upload a file to start.')));
    }
    body.append(...list.map((j) => jobRow(j, { withErrors: true })));
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
  if (new URLSearchParams(location.search).has('deleted')) showNotice($('#jobs-message'), 'The job and its files were deleted.');
  $('#older').addEventListener('click', load);
  await load();
});
