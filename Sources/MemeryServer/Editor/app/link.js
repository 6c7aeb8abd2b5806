// "From a link": a picture taken from a web address (the server downloads it, 20 s at most,
// into the garage) and then used: a new creation in the gallery, a sticker in the editor.
// While it downloads, Download becomes Cancel's neighbour: Cancel aborts the request, the
// server sees the page go, stops, and stores nothing.
import { api } from './api.js';
import { say, fail } from './status.js';

export function linkForm(form, use) {
  const field = form.querySelector('input[type=url]');
  const submit = form.querySelector('button[type=submit]');
  const cancel = form.querySelector('button.cancel');
  let aborter = null;
  cancel.addEventListener('click', () => aborter?.abort());
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const url = field.value.trim();
    if (!url || aborter) return;
    aborter = new AbortController();
    submit.disabled = true;
    cancel.hidden = false;
    say(`Downloading ${url}…`);
    try {
      const item = await api.fromLink(url, aborter.signal);
      field.value = '';
      await use(item);
    } catch (error) {
      if (error.name === 'AbortError') say('Download cancelled: nothing was added.');
      else fail(error);  // the link stays in the field, to be mended
    } finally {
      aborter = null;
      submit.disabled = false;
      cancel.hidden = true;
    }
  });
}
