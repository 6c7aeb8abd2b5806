// "From the web": openly licensed pictures from Openverse and Wikimedia Commons, as cards
// with their thumbnail, title, author and licence; each provider's problem (no answer, nothing
// found) is said beside the other's results. Choosing one takes it, credits and all, into the
// garage, and `use` starts a creation from it.
import { api } from './api.js';
import { say, fail } from './status.js';

export function webSearch(form, results, use) {
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const words = form.querySelector('input[type=search]').value.trim();
    if (!words) { results.replaceChildren(); return; }
    say(`Searching the web for “${words}”…`);
    try {
      const { web } = await api.webSearch(words);
      results.replaceChildren(...web.flatMap((outcome) => [
        note(outcome.images.length ? `${outcome.label}: ${outcome.images.length} picture${outcome.images.length === 1 ? '' : 's'}` : outcome.problem),
        ...outcome.images.map((image) => card(image, use)),
      ]));
      say(web.map((o) => o.problem || `${o.label}: ${o.images.length}`).join(' · '));
    } catch (error) { fail(error); }
  });
}

function note(text) {
  const item = document.createElement('li');
  item.className = 'web-note';
  item.textContent = text;
  return item;
}

function card(image, use) {
  const item = document.createElement('li');
  item.className = 'hub-card web-card';
  const take = document.createElement('button');
  take.type = 'button';
  take.className = 'take';
  take.setAttribute('aria-label', `Start a creation from “${image.title}”${image.author ? ` by ${image.author}` : ''} (${image.licence})`);
  const picture = document.createElement('img');
  picture.loading = 'lazy';
  picture.alt = '';
  picture.src = image.thumbnail;
  take.append(picture);
  take.addEventListener('click', async () => {
    say(`Taking “${image.title}”…`);
    try {
      const item = await api.fromWeb(image.reference);
      await use(item);
    } catch (error) { fail(error); }
  });
  const title = document.createElement('span');
  title.className = 'title';
  title.textContent = image.title;
  const credit = document.createElement('span');
  credit.className = 'tags';
  credit.textContent = [image.author && `by ${image.author}`, image.licence].filter(Boolean).join(', ');
  const page = document.createElement('a');
  page.href = image.page;
  page.target = '_blank';
  page.rel = 'noopener noreferrer';
  page.textContent = 'Its page';
  item.append(take, title, credit, page);
  return item;
}
