// Log in. Errors (wrong credentials, throttled) are the API's sentences, shown under the form.
import { api } from './api.js';
import { $, clearMessages, showError, showNotice } from './ui.js';

const form = $('#login-form');
const errors = $('#form-error');
const params = new URLSearchParams(location.search);
if (params.has('logged_out')) showNotice($('#notice'), 'You are logged out.', 'info');

// Only a console page may be the destination after logging in.
function destination() {
  const next = params.get('next') || '';
  return next.startsWith('/console/') && !next.startsWith('//') ? next : '/console/';
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearMessages(errors, form);
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    await api.login(form.email.value.trim(), form.password.value);
    location.replace(destination());
  } catch (err) {
    showError(errors, err, form);
    form.password.focus();
  } finally {
    button.disabled = false;
  }
});
