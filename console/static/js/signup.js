// Sign up: on success the API has logged the new user in; the overview follows.
import { api } from './api.js';
import { $, clearMessages, showError } from './ui.js';

const form = $('#signup-form');
const errors = $('#form-error');

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  clearMessages(errors, form);
  const button = form.querySelector('button[type=submit]');
  button.disabled = true;
  try {
    await api.signup(form.email.value.trim(), form.password.value, form.name.value.trim());
    location.replace('/console/');
  } catch (err) {
    showError(errors, err, form);
    // Put the user where the problem is.
    const field = err.details && err.details[0] && form.elements.namedItem(err.details[0].field);
    if (field) field.focus();
    else if (err.code === 'email_taken') {
      form.email.classList.add('is-invalid');
      form.email.focus();
    }
  } finally {
    button.disabled = false;
  }
});
