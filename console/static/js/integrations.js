// Integrations: API keys (create with a label, shown once with a copy button, list, revoke after a
// confirm step) and how to call the API from curl, Python and JavaScript.
import { api } from './api.js';
import { $, confirmStep, copyButton, el, formatDate, run, showError, showNotice, startPrivatePage } from './ui.js';

function keyRow(key) {
  const revoked = Boolean(key.revoked_at);
  const actions = el('td', { class: 'text-end key-actions' });
  if (!revoked) {
    actions.append(el('button', {
      type: 'button', class: 'btn btn-outline-danger btn-sm', 'aria-label': `Revoke key ${key.label || key.prefix}`,
      onclick: () => confirmStep($('#revoke-confirm'), `Revoke the key “${key.label || key.prefix}”? Requests with it fail at once.`, 'Revoke key', async () => {
        try {
          await api.revokeKey(key.key_id);
          showNotice($('#key-message'), `The key “${key.label || key.prefix}” is revoked.`);
          await loadKeys();
        } catch (err) { showError($('#key-message'), err); }
      }),
    }, 'Revoke'));
  }
  // data-label: the column's name, shown beside each value when the rows are cards (.keys-table
  // below 768 px), so Revoke stays on a phone's screen.
  return el('tr', {},
    el('td', { class: 'text-break', 'data-label': 'Label' }, key.label || '—'),
    el('td', { 'data-label': 'Key' }, el('code', {}, `${key.prefix}…`)),
    el('td', { 'data-label': 'Created' }, formatDate(key.created_at)),
    el('td', { 'data-label': 'Last used' }, key.last_used_at ? formatDate(key.last_used_at) : 'never'),
    el('td', { 'data-label': 'Status' }, revoked ? el('span', { class: 'badge text-bg-secondary' }, 'revoked') : el('span', { class: 'badge text-bg-success' }, 'active')),
    actions);
}

async function loadKeys() {
  const answer = await api.keys();
  const keys = Array.isArray(answer) ? answer : answer.keys || [];
  $('#keys').replaceChildren(...(keys.length ? keys.map(keyRow)
    : [el('tr', {}, el('td', { colspan: '6', class: 'text-body-secondary' }, 'No keys yet.'))]));
}

function showNewKey(created) {
  const input = el('input', { class: 'form-control secret-once', id: 'new-key', readonly: true, value: created.api_key, 'aria-label': 'Your new API key' });
  $('#key-message').replaceChildren(el('div', { class: 'alert alert-success', role: 'status' },
    el('p', { class: 'mb-2' }, el('strong', {}, 'Your new key. '), 'Copy it now: it is shown only this once.'),
    el('div', { class: 'input-group' }, input, copyButton(input))));
  input.focus();
  input.select();
}

function samples(me) {
  const base = location.origin;
  $('#base-url').textContent = base;
  $('#sample-curl').textContent =
`curl -s ${base}/v1/validate \\
  -H "X-API-Key: $DQ_API_KEY" -H "Content-Type: application/json" \\
  -d '{"records":[{"SKU":"A-1","Price":"19.90"}],"mapping":{"sku":"SKU","price":"Price"}}'

curl -s ${base}/v1/jobs -H "X-API-Key: $DQ_API_KEY" -F file=@catalog.csv`;
  $('#sample-python').textContent =
`import os, requests

r = requests.post("${base}/v1/validate",
                  headers={"X-API-Key": os.environ["DQ_API_KEY"]},
                  json={"records": [{"SKU": "A-1", "Price": "19.90"}],
                        "mapping": {"sku": "SKU", "price": "Price"}},
                  timeout=30)
r.raise_for_status()
print(r.json()["stats"])`;
  $('#sample-js').textContent =
`const r = await fetch("${base}/v1/validate", {
  method: "POST",
  headers: { "X-API-Key": process.env.DQ_API_KEY, "Content-Type": "application/json" },
  body: JSON.stringify({ records: [{ SKU: "A-1", Price: "19.90" }],
                         mapping: { sku: "SKU", price: "Price" } }),
});
if (!r.ok) throw new Error((await r.json()).message);
console.log((await r.json()).stats);`;
  return me;
}

run(async () => {
  const me = await startPrivatePage();
  samples(me);
  const form = $('#key-form');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    $('#key-message').replaceChildren();
    try {
      const created = await api.createKey(form.label.value.trim());
      showNewKey(created);
      form.reset();
      await loadKeys();
    } catch (err) {
      showError($('#key-message'), err, form);
      if (err.code === 'pro_required') {
        $('#key-message').append(el('p', { class: 'mt-2 mb-0' },
          `Keys come with the Pro, Business and Agency plans. Plans are changed by the operator of this service: ask them to move account ${me.account_id} to a paid plan.`));
      }
    } finally {
      button.disabled = false;
    }
  });
  await loadKeys();
});
