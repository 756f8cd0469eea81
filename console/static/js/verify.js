// The link in the sign-up mail: /console/verify#token=… (a fragment, so the token is never sent
// in a request line or a Referer). Sends the token to the API and says what happened.
import { api } from './api.js';
import { $, run, showError, showNotice } from './ui.js';

run(async () => {
  const region = $('#verify-message');
  const token = new URLSearchParams(location.hash.slice(1)).get('token');
  if (!token) {
    showNotice(region, 'This page needs the link from the mail we sent you; open that link.', 'warning');
    return;
  }
  history.replaceState(null, '', location.pathname);  // the token leaves the address bar
  try {
    await api.verifyEmail(token);
    showNotice(region, 'Thank you: your e-mail address is confirmed. You can now set a webhook and, on a paid plan, get API keys.');
  } catch (err) {
    showError(region, err);
  }
});
