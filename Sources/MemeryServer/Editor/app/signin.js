// The hub's sign-in page: signing in sets the session cookie (HttpOnly: this script never
// sees the token), then the editor opens. A new account is made, then signed in to.
import { say, fail } from './status.js';

async function post(path, body) {
  const answer = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (answer.ok) return;
  let message = `${answer.status} ${answer.statusText}`;
  try { message = (await answer.json()).message || message; } catch (error) { /* not JSON: the status says it */ }
  throw new Error(message);
}

async function signIn(user, password) {
  await post('/v1/browser/session', { user, password });
  location.replace('/' + location.hash);
}

function handle(form, work) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    try { await work(); } catch (error) { fail(error); } finally { button.disabled = false; }
  });
}

handle(document.getElementById('signin-form'), () =>
  signIn(document.getElementById('signin-user').value.trim(), document.getElementById('signin-password').value));

handle(document.getElementById('signup-form'), async () => {
  const user = document.getElementById('signup-user').value.trim();
  const password = document.getElementById('signup-password').value;
  await post('/v1/accounts', { user, password });
  await signIn(user, password);
});
