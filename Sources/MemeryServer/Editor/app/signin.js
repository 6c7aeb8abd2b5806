// The hub's sign-in page: signing in sets the session cookie (HttpOnly: this script never
// sees the token), then the editor opens. A new account is made, then signed in to.

async function post(path, body) {
  const answer = await fetch(path, { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) });
  if (answer.ok) return;
  let message = `${answer.status} ${answer.statusText}`;
  try { message = (await answer.json()).message || message; } catch (error) { /* not JSON: the status says it */ }
  throw new Error(message);
}

async function signIn(user, password) {
  await post('/v1/browser/session', { user, password });
  // The editor, at the place asked for (the address's #… part). The hub answers "/" with the
  // editor now; a replace by the same address with its #… would load nothing, so reload.
  if (location.pathname === '/') location.reload(); else location.replace('/' + location.hash);
}

// What went wrong is said in the form itself, beside the button the person pressed (an
// alert: read out at once), not in the bar at the top of a phone's screen.
function handle(form, work) {
  const problem = form.querySelector('.form-problem');
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const button = form.querySelector('button');
    button.disabled = true;
    problem.hidden = true;
    problem.textContent = '';
    try {
      await work();
    } catch (error) {
      problem.textContent = error.message || String(error);
      problem.hidden = false;
      console.warn(error);
    } finally {
      button.disabled = false;
    }
  });
}

// A message about one form goes once the person types in either: it is about what was, not
// what is being typed now (the sign-in's refusal stayed while the account was being made).
for (const field of document.querySelectorAll('.signin-form input')) {
  field.addEventListener('input', () => {
    for (const problem of document.querySelectorAll('.form-problem')) { problem.hidden = true; problem.textContent = ''; }
  });
}

// Sent here because the session ended elsewhere (api.js `toSignIn`): say so once.
const signedOut = sessionStorage.getItem('memery-signed-out');
if (signedOut) {
  sessionStorage.removeItem('memery-signed-out');
  const problem = document.getElementById('signin-problem');
  problem.textContent = signedOut;
  problem.hidden = false;
}

handle(document.getElementById('signin-form'), () =>
  signIn(document.getElementById('signin-user').value.trim(), document.getElementById('signin-password').value));

handle(document.getElementById('signup-form'), async () => {
  const user = document.getElementById('signup-user').value.trim();
  const password = document.getElementById('signup-password').value;
  await post('/v1/accounts', { user, password });
  await signIn(user, password);
});
