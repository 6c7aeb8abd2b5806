// One line that tells the person what happened or what went wrong.
const line = () => document.getElementById('status');

export function say(text) {
  line().textContent = text;
  line().className = '';
}

export function fail(error) {
  line().textContent = error.message || String(error);
  line().className = 'error';
  console.warn(error);
}
