// On a hub, the editor belongs to a signed-in person (`/api/hub` says `signedIn`): their
// name, which opens their account (the devices signed in, each can be signed out; a new
// password), and signing out, which ends this browser's session on the hub. The hub's own
// API (/v1) is called with the session cookie; `memery serve` shows nothing of this. A
// request answered 401 (the session revoked from another device) opens the sign-in page
// (api.js).
import { toSignIn } from './api.js';
import { fail as failInBar } from './status.js';

async function hub(method, path, body) {
  const options = { method, headers: {} };
  if (body) { options.body = JSON.stringify(body); options.headers['Content-Type'] = 'application/json'; }
  const answer = await fetch(path, options);
  if (answer.status === 401) { toSignIn(); }
  if (!answer.ok) {
    let message = `${answer.status} ${answer.statusText}`;
    try { message = (await answer.json()).message || message; } catch (error) { /* not JSON */ }
    throw new Error(message);
  }
  return answer.status === 204 ? null : answer.json();
}

// What happened is said inside the dialog, which covers the bar at the top where the
// editor says the rest.
function tell(text, problem = false) {
  const said = document.getElementById('account-said'), wrong = document.getElementById('account-problem');
  said.textContent = problem ? '' : text;
  wrong.textContent = problem ? text : '';
  wrong.hidden = !problem;
}
const fail = (error) => { tell(error.message || String(error), true); console.warn(error); };
const say = (text) => tell(text);

async function showDevices() {
  const account = await hub('GET', '/v1/account');
  const list = document.getElementById('account-devices');
  list.replaceChildren(...account.devices.map((device) => {
    const item = document.createElement('li');
    const seen = new Date(device.lastSeen).toLocaleString();
    item.textContent = `${device.device}${device.current ? ' (this browser)' : ''}, last seen ${seen} `;
    if (!device.current) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Sign out';
      button.setAttribute('aria-label', `Sign out ${device.device}`);
      button.addEventListener('click', async () => {
        try { await hub('DELETE', `/v1/sessions/${device.id}`); say(`${device.device} signed out`); await showDevices(); } catch (error) { fail(error); }
      });
      item.append(button);
    }
    return item;
  }));
}

export function showAccount(status) {
  if (!status.signedIn) return;
  const dialog = document.getElementById('account-dialog');
  document.getElementById('account-name').textContent = status.user;
  document.getElementById('account').hidden = false;
  document.getElementById('account-open').addEventListener('click', async () => {
    try { await showDevices(); tell(''); dialog.showModal(); } catch (error) { failInBar(error); }
  });
  document.getElementById('account-close').addEventListener('click', () => dialog.close());
  const old = document.getElementById('password-old'), next = document.getElementById('password-new');
  // A message about what was typed goes once it is being mended.
  for (const field of [old, next]) field.addEventListener('input', () => tell(''));
  document.getElementById('password-form').addEventListener('submit', async (event) => {
    event.preventDefault();
    if (next.value === old.value) { fail(new Error('the new password is the one the account has now: choose another')); return; }
    try {
      await hub('PUT', '/v1/account/password', { old: old.value, new: next.value });
      old.value = next.value = '';
      say('password changed: every other device is signed out');
      await showDevices();
    } catch (error) { fail(error); }
  });
  document.getElementById('sign-out').addEventListener('click', async () => {
    try {
      const answer = await fetch('/v1/browser/session', { method: 'DELETE' });
      if (!answer.ok) throw new Error(`not signed out (${answer.status} ${answer.statusText}): try again`);
      sessionStorage.removeItem('memery-drafts');  // signed out on purpose: nothing typed is kept
      location.replace('/');
    } catch (error) { failInBar(error); }
  });
}
