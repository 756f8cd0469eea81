// Every request the console makes goes through this module. It sends the session's CSRF token on
// state-changing calls, turns error answers into ApiError (with the API's own message, shown to
// the user as it is) and sends the user to the login page when the session is gone.
import { waitSeconds, withHumanWait } from './dates.js';

const BASE = '/console/api';
let csrfToken = null;

export class ApiError extends Error {
  constructor(status, code, message, details = []) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

// Where a 401 sends the user: the login page, coming back here afterwards.
export function loginUrl() {
  const here = location.pathname + location.search;
  return '/console/login?next=' + encodeURIComponent(here);
}

async function request(method, path, { json, form, query, auth = true } = {}) {
  const headers = { Accept: 'application/json' };
  let body;
  if (json !== undefined) {
    headers['Content-Type'] = 'application/json';
    body = JSON.stringify(json);
  } else if (form !== undefined) {
    body = form;
  }
  if (method !== 'GET' && csrfToken) headers['X-CSRF-Token'] = csrfToken;
  let url = BASE + path;
  if (query) {
    const q = new URLSearchParams();
    for (const [k, v] of Object.entries(query)) if (v !== undefined && v !== null && v !== '') q.set(k, v);
    if ([...q].length) url += (url.includes('?') ? '&' : '?') + q;
  }
  let res;
  try {
    res = await fetch(url, { method, headers, body, credentials: 'same-origin', cache: 'no-store' });
  } catch {
    throw new ApiError(0, 'network_error', 'The service could not be reached. Check your connection and try again.');
  }
  const text = await res.text();
  let data = null;
  if (text) {
    try { data = JSON.parse(text); } catch { data = null; }
  }
  if (res.status === 401 && auth) {
    location.assign(loginUrl());
    throw new ApiError(401, 'login_required', 'Please log in again.');
  }
  if (!res.ok) {
    let message = (data && data.message) || `The service answered ${res.status}.`;
    // A wait is shown as a time ("try again in 3 minutes", "on 27 Nov at 14:00 UTC"), never as
    // seconds; the API's own text is kept otherwise. A refused quota already says the day it
    // renews.
    if ((res.status === 429 || res.status === 503) && !(data && data.error === 'quota_exceeded')) {
      message = withHumanWait(message, waitSeconds(res.headers));
    }
    throw new ApiError(res.status, (data && data.error) || `http_${res.status}`, message, (data && data.details) || []);
  }
  return data;
}

// A state-changing call whose token went stale (a new session in another tab) is retried once
// with a fresh token.
async function write(method, path, options) {
  try {
    return await request(method, path, options);
  } catch (e) {
    if (e.code !== 'csrf_failed') throw e;
    await me();
    return request(method, path, options);
  }
}

export async function me() {
  const m = await request('GET', '/me');
  csrfToken = m.csrf_token;
  return m;
}

export const api = {
  me,
  signup: (email, password, name) => request('POST', '/signup', { json: { email, password, name }, auth: false }),
  login: (email, password) => request('POST', '/login', { json: { email, password }, auth: false }),
  verifyEmail: (token) => request('POST', '/verify', { json: { token }, auth: false }),
  logout: () => write('POST', '/logout', { auth: false }),

  keys: () => request('GET', '/keys'),
  createKey: (label) => write('POST', '/keys', { json: { label } }),
  revokeKey: (id) => write('DELETE', '/keys/' + encodeURIComponent(id)),

  webhook: () => request('GET', '/webhook'),
  saveWebhook: (url, enabled) => write('PUT', '/webhook', { json: { url, enabled } }),
  rollSecret: () => write('POST', '/webhook/secret'),
  testWebhook: () => write('POST', '/webhook/test'),
  deliveries: (limit = 20, status = '') => request('GET', '/webhook/deliveries', { query: { limit, status } }),
  redeliver: (id) => write('POST', '/webhook/deliveries/' + encodeURIComponent(id) + '/redeliver'),

  jobs: (query) => request('GET', '/jobs', { query }),
  // The job without its issues (issues=none): the console reads them a page at a time.
  job: (id) => request('GET', '/jobs/' + encodeURIComponent(id), { query: { issues: 'none' } }),
  summary: (id) => request('GET', '/jobs/' + encodeURIComponent(id) + '/summary'),
  // issues(id, {limit, cursor, code, field, severity, sku}), or issues(id, offset, limit).
  issues: (id, query, limit) => request('GET', '/jobs/' + encodeURIComponent(id) + '/issues',
    { query: typeof query === 'object' ? query : { offset: query, limit } }),
  issueCodes: () => request('GET', '/issue-codes'),
  preview: (form) => write('POST', '/jobs/preview', { form }),
  upload: (form) => write('POST', '/jobs', { form }),
  // Starts a job from a preview's kept upload (upload_id and the options as query parameters).
  start: (query) => write('POST', '/jobs', { query }),
  limits: () => request('GET', '/jobs/limits'),
  deleteJob: (id) => write('DELETE', '/jobs/' + encodeURIComponent(id)),

  // Plain links for downloads: the browser fetches them with the session cookie.
  cleanedUrl: (id) => BASE + '/jobs/' + encodeURIComponent(id) + '/cleaned',
  issuesCsvUrl: (id, filters = {}) => {
    // limit=all: every matching issue, however many (docs/api.md).
    const q = new URLSearchParams({ format: 'csv', limit: 'all' });
    for (const [k, v] of Object.entries(filters)) if (v) q.set(k, v);
    return BASE + '/jobs/' + encodeURIComponent(id) + '/issues?' + q;
  },
};
