// One line that tells the person what happened or what went wrong.
const line = () => document.getElementById('status');

// A tap on a message cut to two lines (a phone) shows the whole of it.
document.addEventListener('click', (event) => { if (event.target.id === 'status') event.target.classList.toggle('whole'); });

export function say(text) {
  line().textContent = text;
  line().className = '';
}

export function fail(error) {
  line().textContent = error.message || String(error);
  line().className = 'error';
  console.warn(error);
}
