// One line that tells the person what happened or what went wrong.
const line = () => document.getElementById('status');

// A tap on a message cut to two lines (a phone) shows the whole of it.
document.addEventListener('click', (event) => { if (event.target.id === 'status') event.target.classList.toggle('whole'); });

export function say(text) { show(text, ''); }

export function fail(error) {
  show(error.message || String(error), 'error');
  console.warn(error);
}

// A message cut to two lines says so (dotted underline, a title): nothing else would tell
// the person that a tap shows the rest.
function show(text, kind) {
  const element = line();
  element.textContent = text;
  element.className = kind;
  element.removeAttribute('title');
  requestAnimationFrame(() => {
    if (element.textContent !== text || element.scrollHeight <= element.clientHeight + 1) return;
    element.classList.add('cut');
    element.title = 'Tap to read all of it';
  });
}
