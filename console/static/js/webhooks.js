// Webhooks: the endpoint (URL, on/off; a refused address is the API's sentence), the signing
// secret (rolled after a confirm step, shown once), a test event, the recent deliveries with
// redeliver, and how to verify a signature.
import { api } from './api.js';
import { $, clearMessages, confirmStep, copyButton, el, formatDate, run, showError, showNotice, startPrivatePage } from './ui.js';

function secretState(hook) {
  $('#secret-state').textContent = hook.secret_set
    ? `A secret is set${hook.secret_hint ? ` (it ends in ${hook.secret_hint})` : ''}; every delivery is signed with it.`
    : 'No secret yet: deliveries are not signed. Roll a secret to start signing them.';
}

async function loadWebhook() {
  const hook = await api.webhook();
  const form = $('#webhook-form');
  form.url.value = hook.url || '';
  form.enabled.checked = Boolean(hook.enabled);
  secretState(hook);
}

function deliveryStatus(d) {
  const named = { delivered: ['success', 'delivered'], retry: ['warning', 'retrying'], dead_letter: ['danger', 'gave up'], skipped: ['secondary', 'skipped (off)'], failed: ['danger', 'failed'] }[d.outcome];
  if (named && !d.dead) return el('span', { class: `badge text-bg-${named[0]}` }, named[1]);
  if (d.dead) return el('span', { class: 'badge text-bg-danger' }, 'gave up');
  if (d.status_code >= 200 && d.status_code < 300) return el('span', { class: 'badge text-bg-success' }, 'delivered');
  if (d.next_retry_at) return el('span', { class: 'badge text-bg-warning' }, 'retrying');
  return el('span', { class: 'badge text-bg-danger' }, 'failed');
}

function deliveryRow(d) {
  const redeliver = el('button', {
    type: 'button', class: 'btn btn-outline-secondary btn-sm', 'aria-label': `Redeliver ${d.event} ${d.delivery_id}`,
    onclick: async (event) => {
      event.target.disabled = true;
      try {
        await api.redeliver(d.delivery_id);
        showNotice($('#test-message'), 'The event is queued again.');
        await loadDeliveries();
      } catch (err) { showError($('#test-message'), err); } finally { event.target.disabled = false; }
    },
  }, 'Redeliver');
  return el('tr', { 'data-delivery': d.delivery_id },
    el('td', {}, formatDate(d.at)),
    el('td', {}, el('code', {}, d.event), d.attempt ? el('span', { class: 'small text-body-secondary' }, ` #${d.attempt}`) : null),
    el('td', {}, deliveryStatus(d)),
    el('td', { class: 'text-end' }, d.status_code ? String(d.status_code) : '—'),
    el('td', { class: 'text-end' }, typeof d.duration_ms === 'number' ? `${d.duration_ms} ms` : '—'),
    el('td', { class: 'value-cell' }, d.error || ''),
    el('td', {}, d.next_retry_at ? formatDate(d.next_retry_at) : '—'),
    el('td', { class: 'text-end' }, redeliver));
}

async function loadDeliveries() {
  try {
    const answer = await api.deliveries(20);
    const list = Array.isArray(answer) ? answer : answer.deliveries || [];
    $('#deliveries').replaceChildren(...(list.length ? list.map(deliveryRow)
      : [el('tr', {}, el('td', { colspan: '8', class: 'text-body-secondary' }, 'No deliveries yet.'))]));
  } catch (err) {
    showError($('#test-message'), err);
  }
}

function samples() {
  $('#verify-python').textContent =
`import base64, hashlib, hmac

def verify(secret: str, body: bytes, headers) -> bool:
    """body: the raw request body, before any JSON parsing."""
    expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    if not hmac.compare_digest(expected, headers.get("X-Service-Signature", "")):
        return False
    # Standard Webhooks form: also refuse old timestamps (replays).
    msg_id, ts = headers["webhook-id"], headers["webhook-timestamp"]
    key = base64.b64decode(secret.removeprefix("whsec_"))
    sig = base64.b64encode(hmac.new(key, f"{msg_id}.{ts}.".encode() + body,
                                    hashlib.sha256).digest()).decode()
    return any(hmac.compare_digest("v1," + sig, s)
               for s in headers["webhook-signature"].split())`;
  $('#verify-node').textContent =
`const crypto = require("node:crypto");

// body: the raw request body as a Buffer (e.g. express.raw({ type: "application/json" })).
function verify(secret, body, headers) {
  const expected = "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex");
  const got = headers["x-service-signature"] || "";
  if (got.length !== expected.length ||
      !crypto.timingSafeEqual(Buffer.from(got), Buffer.from(expected))) return false;
  // Standard Webhooks form (also: npm install standardwebhooks).
  const key = Buffer.from(secret.replace(/^whsec_/, ""), "base64");
  const signed = \`\${headers["webhook-id"]}.\${headers["webhook-timestamp"]}.\`;
  const sig = "v1," + crypto.createHmac("sha256", key)
    .update(Buffer.concat([Buffer.from(signed), body])).digest("base64");
  return headers["webhook-signature"].split(" ").includes(sig);
}`;
}

function showSecret(secret) {
  const input = el('input', { class: 'form-control secret-once', id: 'new-secret', readonly: true, value: secret, 'aria-label': 'Your new signing secret' });
  $('#secret-message').replaceChildren(el('div', { class: 'alert alert-success', role: 'status' },
    el('p', { class: 'mb-2' }, el('strong', {}, 'Your new secret. '), 'Copy it now: it is shown only this once. The old secret no longer signs.'),
    el('div', { class: 'input-group' }, input, copyButton(input))));
  input.focus();
  input.select();
}

function describeTest(d) {
  const ok = d.outcome === 'delivered';
  if (d.outcome === 'skipped') return ['The test event was not sent: events are switched off.', 'warning'];
  const parts = [ok ? 'The test event was delivered' : 'The test event was not delivered'];
  if (d.status_code) parts.push(`: your endpoint answered ${d.status_code}`);
  if (typeof d.duration_ms === 'number') parts.push(` in ${d.duration_ms} ms`);
  if (d.error && !ok) parts.push(` (${d.error})`);
  return [parts.join('') + '.', ok ? 'success' : 'warning'];
}

const sleep = (ms) => new Promise((resolve) => { setTimeout(resolve, ms); });

// The test event is queued for delivery; its attempt shows in the delivery log when it has been
// made. Waits for it (a receiver may take its time to answer), or says it is still on its way.
async function followTest(deliveryId) {
  const region = $('#test-message');
  showNotice(region, 'The test event is queued; waiting for your endpoint to answer…', 'info');
  const until = Date.now() + 30000;
  for (let wait = 500; Date.now() < until; wait = Math.min(wait * 2, 3000)) {
    await sleep(wait);
    const answer = await api.deliveries(20);
    const list = Array.isArray(answer) ? answer : answer.deliveries || [];
    const found = list.find((d) => d.delivery_id === deliveryId);
    if (found) {
      const [text, kind] = describeTest(found);
      showNotice(region, text, kind);
      return;
    }
  }
  showNotice(region, 'The test event is still on its way. Refresh the deliveries in a moment to see how your endpoint answered.', 'info');
}

run(async () => {
  await startPrivatePage();
  samples();
  const form = $('#webhook-form');
  const message = $('#webhook-message');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    clearMessages(message, form);
    const button = form.querySelector('button[type=submit]');
    button.disabled = true;
    try {
      const hook = await api.saveWebhook(form.url.value.trim(), form.enabled.checked);
      if (hook && typeof hook === 'object') secretState(hook);
      showNotice(message, form.enabled.checked ? 'Saved. Events will be sent to this endpoint.' : 'Saved. Events are switched off.');
    } catch (err) {
      showError(message, err, form);
      if (err.code === 'invalid_webhook_url') form.url.classList.add('is-invalid');
    } finally {
      button.disabled = false;
    }
  });
  $('#roll-secret').addEventListener('click', () => confirmStep($('#secret-confirm'),
    'Make a new signing secret? The current one stops signing at once.', 'Yes, roll the secret', async () => {
      try {
        const answer = await api.rollSecret();
        showSecret(answer.secret || answer.webhook_secret || '');
        await loadWebhook();
      } catch (err) { showError($('#secret-message'), err); }
    }));
  $('#send-test').addEventListener('click', async (event) => {
    event.target.disabled = true;
    try {
      const queued = await api.testWebhook();
      await followTest(queued.delivery_id);
    } catch (err) {
      showError($('#test-message'), err);
    } finally {
      event.target.disabled = false;
      await loadDeliveries();
    }
  });
  $('#refresh-deliveries').addEventListener('click', loadDeliveries);
  await loadWebhook();
  await loadDeliveries();
});
