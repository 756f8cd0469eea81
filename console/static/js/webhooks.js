// Webhooks: the endpoint (URL, on/off; a refused address is the API's sentence; a new endpoint
// gets its signing secret, shown once), the signing secret (rolled after a confirm step, shown
// once; the old one keeps signing for a while), a test event, the delivery log (filtered by
// status, each attempt with its request and the head of the answer) with redeliver, and how to
// verify a signature.
import { api } from './api.js';
import { $, clearMessages, confirmStep, copyButton, el, formatDate, run, showError, showNotice, startPrivatePage } from './ui.js';

function secretState(hook) {
  const parts = [hook.secret_set
    ? `A secret is set${hook.secret_hint ? ` (it ends in ${hook.secret_hint})` : ''}; every delivery is signed with it.`
    : 'No secret yet: deliveries are not signed. Save an endpoint or roll a secret to start signing them.'];
  if (hook.previous_secret_until) {
    parts.push(` Your previous secret${hook.previous_secret_hint ? ` (ending in ${hook.previous_secret_hint})` : ''} also signs until ${formatDate(hook.previous_secret_until)}, so your endpoint can switch without failing deliveries.`);
  }
  $('#secret-state').textContent = parts.join('');
}

async function loadWebhook() {
  const hook = await api.webhook();
  const form = $('#webhook-form');
  form.url.value = hook.url || '';
  // A new endpoint starts with events on.
  form.enabled.checked = hook.url ? Boolean(hook.enabled) : true;
  secretState(hook);
}

function deliveryStatus(d) {
  if (d.dead) return el('span', { class: 'badge text-bg-danger' }, 'gave up');
  const named = { delivered: ['success', 'delivered'], retry: ['warning', 'failed, will retry'], dead_letter: ['danger', 'gave up'], skipped: ['secondary', 'skipped (off)'], failed: ['danger', 'failed'] }[d.outcome];
  if (named) return el('span', { class: `badge text-bg-${named[0]}` }, named[1]);
  if (d.status_code >= 200 && d.status_code < 300) return el('span', { class: 'badge text-bg-success' }, 'delivered');
  return el('span', { class: 'badge text-bg-danger' }, 'failed');
}

function jobCell(d) {
  if (!d.job_id && !d.filename) return '—';
  const name = d.filename || 'job';
  // A test event's job is made up: nothing to link to.
  const title = d.test || !d.job_id ? el('span', {}, name)
    : el('a', { href: '/console/job?id=' + encodeURIComponent(d.job_id) }, name);
  return [title, d.job_id ? el('div', { class: 'job-id font-monospace' }, d.job_id) : null];
}

function body(text, empty) {
  return el('pre', { class: 'delivery-body', tabindex: '0' }, text ? text : empty);
}

function prettyJson(text) {
  try { return JSON.stringify(JSON.parse(text), null, 2); } catch { return text; }
}

function detailRow(d) {
  const response = d.response_body
    ? `${d.response_body}${d.response_truncated ? '\n… (cut at 1 KB)' : ''}`
    : '';
  return el('tr', { class: 'detail-row', 'data-detail': d.delivery_id },
    el('td', { colspan: '8' },
      el('details', {},
        el('summary', {}, `Request and response, attempt ${d.attempt}`),
        el('div', { class: 'delivery-bodies' },
          el('div', {}, el('h3', {}, 'Request body'), body(prettyJson(d.request_body), '(empty)')),
          el('div', {}, el('h3', {}, 'Response (first 1 KB)'),
            body(response, d.status_code ? '(empty body)' : `No answer: ${d.error || 'no response'}`))))));
}

function deliveryRows(d) {
  const redeliver = el('button', {
    type: 'button', class: 'btn btn-outline-secondary btn-sm', 'aria-label': `Redeliver ${d.event} ${d.delivery_id}`,
    onclick: async (event) => {
      event.target.disabled = true;
      try {
        await api.redeliver(d.delivery_id);
        showNotice($('#test-message'), 'The event is queued again. Any retry that was still waiting is cancelled, so your endpoint gets it once more.');
        await loadDeliveries();
      } catch (err) { showError($('#test-message'), err); } finally { event.target.disabled = false; }
    },
  }, 'Redeliver');
  const code = d.status_code ? String(d.status_code) : (d.error || '—');
  return [el('tr', { class: 'attempt-row', 'data-delivery': d.delivery_id, 'data-outcome': d.outcome },
    el('td', { 'data-label': 'When' }, formatDate(d.at)),
    el('td', { 'data-label': 'Event' }, el('code', {}, d.event),
      d.test ? [' ', el('span', { class: 'badge text-bg-info' }, 'test')] : null,
      el('span', { class: 'small text-body-secondary' }, ` attempt ${d.attempt}`)),
    el('td', { 'data-label': 'Job', class: 'job-cell' }, jobCell(d)),
    el('td', { 'data-label': 'Status' }, deliveryStatus(d)),
    el('td', { 'data-label': 'Code', class: 'text-end value-cell' }, code),
    el('td', { 'data-label': 'Duration', class: 'text-end' }, typeof d.duration_ms === 'number' ? `${d.duration_ms} ms` : '—'),
    el('td', { 'data-label': 'Next retry' }, d.next_retry_at ? formatDate(d.next_retry_at) : '—'),
    el('td', { class: 'text-end' }, redeliver)),
  detailRow(d)];
}

async function loadDeliveries() {
  try {
    const status = $('#delivery-status').value;
    const answer = await api.deliveries(20, status);
    const list = Array.isArray(answer) ? answer : answer.deliveries || [];
    const none = status ? 'No attempts with this status among the last 100.' : 'No deliveries yet.';
    $('#deliveries').replaceChildren(...(list.length ? list.flatMap(deliveryRows)
      : [el('tr', {}, el('td', { colspan: '8', class: 'text-body-secondary' }, none))]));
  } catch (err) {
    showError($('#test-message'), err);
  }
}

function samples() {
  $('#verify-python').textContent =
`import base64, hashlib, hmac

def verify(secrets: list[str], body: bytes, headers) -> bool:
    """secrets: your secret, and the old one too while a roll's overlap lasts.
    body: the raw request body, before any JSON parsing."""
    got = headers.get("X-Service-Signature", "")
    listed = headers.get("webhook-signature", "").split(" ")
    for secret in secrets:
        expected = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
        if hmac.compare_digest(expected, got):
            return True
        # Standard Webhooks form (whsec_ secrets). Also refuse old timestamps (replays).
        if secret.startswith("whsec_") and "webhook-id" in headers:
            key = base64.b64decode(secret.removeprefix("whsec_"))
            signed = f'{headers["webhook-id"]}.{headers["webhook-timestamp"]}.'.encode() + body
            sig = "v1," + base64.b64encode(hmac.new(key, signed, hashlib.sha256).digest()).decode()
            if any(hmac.compare_digest(sig, s) for s in listed):
                return True
    return False`;
  $('#verify-node').textContent =
`const crypto = require("node:crypto");

const same = (a, b) => a.length === b.length && crypto.timingSafeEqual(Buffer.from(a), Buffer.from(b));

// secrets: your secret, and the old one too while a roll's overlap lasts.
// body: the raw request body as a Buffer (e.g. express.raw({ type: "application/json" })).
function verify(secrets, body, headers) {
  const got = headers["x-service-signature"] || "";
  const listed = (headers["webhook-signature"] || "").split(" ");
  return secrets.some((secret) => {
    const expected = "sha256=" + crypto.createHmac("sha256", secret).update(body).digest("hex");
    if (same(expected, got)) return true;
    // Standard Webhooks form (also: npm install standardwebhooks).
    if (!secret.startsWith("whsec_") || !headers["webhook-id"]) return false;
    const key = Buffer.from(secret.slice(6), "base64");
    const signed = \`\${headers["webhook-id"]}.\${headers["webhook-timestamp"]}.\`;
    const sig = "v1," + crypto.createHmac("sha256", key)
      .update(Buffer.concat([Buffer.from(signed), body])).digest("base64");
    return listed.some((s) => same(sig, s));
  });
}`;
}

// The secret, shown this once. until: when the replaced secret stops signing (null: none).
function showSecret(secret, { created = false, until = null } = {}) {
  const input = el('input', { class: 'form-control secret-once', id: 'new-secret', readonly: true, value: secret, 'aria-label': created ? 'Your signing secret' : 'Your new signing secret' });
  const after = created
    ? 'Every delivery to this endpoint is signed with it.'
    : until ? `The old secret keeps signing beside it until ${formatDate(until)}: update your endpoint before then.`
      : 'The old secret no longer signs.';
  $('#secret-message').replaceChildren(el('div', { class: 'alert alert-success', role: 'status' },
    el('p', { class: 'mb-2' }, el('strong', {}, created ? 'Your signing secret. ' : 'Your new secret. '), 'Copy it now: it is shown only this once. ', after),
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
      if (hook && hook.secret) showSecret(hook.secret, { created: true });
    } catch (err) {
      showError(message, err, form);
      if (err.code === 'invalid_webhook_url') form.url.classList.add('is-invalid');
    } finally {
      button.disabled = false;
    }
  });
  $('#roll-secret').addEventListener('click', () => confirmStep($('#secret-confirm'),
    'Make a new signing secret? The current one keeps signing beside it for a while (24 hours unless your operator changed it), so your endpoint can switch without missing a delivery.', 'Yes, roll the secret', async () => {
      try {
        const answer = await api.rollSecret();
        showSecret(answer.secret || '', { until: answer.previous_secret_until });
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
  $('#delivery-status').addEventListener('change', loadDeliveries);
  await loadWebhook();
  await loadDeliveries();
});
