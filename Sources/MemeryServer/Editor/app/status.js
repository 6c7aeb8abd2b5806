// One line that tells the person what happened or what went wrong.
const line = () => document.getElementById('status');

// A tap on a message cut to two lines (a phone) shows the whole of it.
document.addEventListener('click', (event) => { if (event.target.id === 'status') event.target.classList.toggle('whole'); });

export function say(text) { show(text, ''); }

export function fail(error) {
  show(error.message || String(error), 'error');
  // A refusal (the API's 4xx: nothing to undo, a broken picture) is said to the person; only
  // what is not one is a fault worth the console.
  if (!(error.status >= 400 && error.status < 500)) console.warn(error);
}

// A failure said earlier, let go once the person has moved on (a preview shown, a sheet
// opened): a message still in red would be read as being about what they do now.
export function forgetFailure() {
  if (line().classList.contains('error')) show('', '');
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
