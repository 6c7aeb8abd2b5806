// The hub the store is logged in to (`memery login`), when it is: the week's recommended
// memes (browse by week, start from one; a manager adds, reorders and takes them down),
// a search of the hub's library in the new-creation area, and links to shared memes.
// Everything goes through this server's /api/hub: the page never holds the hub's token.
import { api } from './api.js';
import { say, fail } from './status.js';

export class Hub {
  constructor(open) {
    this.open = open;  // called with a new creation's name
    this.status = { connected: false };
    this.section = document.getElementById('recommended');
    this.week = document.getElementById('recommended-week');
    this.list = document.getElementById('recommended-list');
    this.note = document.getElementById('recommended-note');
    this.week.addEventListener('change', () => this.showWeek(this.week.value));
    document.getElementById('hub-search-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.search(document.getElementById('hub-search').value);
    });
  }

  get connected() { return this.status.connected; }
  get manager() { return this.status.connected && this.status.manager; }

  async load() {
    try { this.status = await api.hub(); } catch (error) { this.status = { connected: false }; }
    document.getElementById('hub-search-form').hidden = !this.connected;
    if (this.connected) document.getElementById('more-sources-summary').textContent = 'More ways to start: the hub’s library, blank, a link, the web, a template…';
    document.getElementById('recommend').hidden = !this.manager;
    this.section.hidden = !this.connected;
    if (this.connected) await this.showWeek(this.week.value || undefined);
    this.loaded = true;
  }

  // Back in the gallery: the week again (another machine may have changed it).
  refresh() { if (this.loaded && this.connected) this.showWeek(this.week.value || undefined); }

  async showWeek(week) {
    try {
      const answer = await api.recommended(week);
      const weeks = answer.weeks.includes(answer.week) ? answer.weeks : [answer.week, ...answer.weeks];
      this.week.replaceChildren(...weeks.map((w) => new Option(w, w, false, w === answer.week)));
      this.note.textContent = answer.items.length ? '' : `Nothing recommended in ${answer.week} yet.`;
      this.note.hidden = answer.items.length > 0;
      // A hub that has never recommended anything shows no empty section above the gallery.
      this.section.hidden = !answer.items.length && !answer.weeks.some((w) => w !== answer.week);
      this.skipped = [];
      this.list.replaceChildren(...answer.items.map((item, index) => this.card(item, [
        button('Use', `Start a creation from “${item.title}”`, () => this.use(item)),
        ...(this.manager ? [
          button('↑', 'Earlier in the week', () => this.move(item, index), index === 0),
          button('↓', 'Later in the week', () => this.move(item, index + 2), index === answer.items.length - 1),
          button('Remove', `Take “${item.title}” down`, () => this.takeDown(item)),
        ] : []),
      ])));
    } catch (error) { fail(error); }
  }

  // One entry: its picture (left out, with a note, when this browser cannot show it),
  // its title and tags, and its buttons.
  card(item, buttons) {
    const li = document.createElement('li');
    li.className = 'hub-card';
    li.dataset.id = item.id;
    const img = document.createElement('img');
    img.alt = item.title;
    img.loading = 'lazy';
    img.src = item.picture;
    img.addEventListener('error', () => {
      li.remove();
      this.skipped = [...(this.skipped || []), item.title];
      say(`skipped ${this.skipped.map((t) => `“${t}”`).join(', ')}: the picture could not be shown here`);
    });
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = item.title;
    const tags = document.createElement('span');
    tags.className = 'tags';
    tags.textContent = item.tags.map((t) => `#${t}`).join(' ');
    const row = document.createElement('span');
    row.className = 'buttons';
    row.append(...buttons);
    li.append(img, title, tags, row);
    return li;
  }

  async use(item) {
    try {
      const { name } = await api.useFromHub(item.id);
      say(`started “${name}” from “${item.title}”`);
      this.open(name);
    } catch (error) { fail(error); }
  }

  async move(item, position) {
    try { await api.moveRecommendation(item.id, position); await this.showWeek(this.week.value); } catch (error) { fail(error); }
  }

  async takeDown(item) {
    if (!confirm(`Take “${item.title}” down from the recommendations?`)) return;
    try { await api.takeDown(item.id); say(`took down “${item.title}”`); await this.showWeek(this.week.value); } catch (error) { fail(error); }
  }

  async search(words) {
    const results = document.getElementById('hub-results');
    if (!words.trim()) { results.replaceChildren(); return; }
    try {
      const { items } = await api.searchHub(words);
      const empty = document.createElement('li');
      empty.textContent = `Nothing in the hub's library matches “${words}”.`;
      results.replaceChildren(...(items.length ? items.map((item) => this.card(item, [
        button('Start', `Start a creation from “${item.title}” (${item.kind})`, () => this.use(item)),
      ])) : [empty]));
    } catch (error) { fail(error); }
  }

  // The editor's Share: a public link on the hub, handed to the device's share sheet where
  // there is one (a phone: messages, mail, chat apps), else copied; without a hub, nothing
  // (the caller shares the picture itself).
  async share(name, format, quality) {
    // A hub serving this page answers a link on its own origin ("/s/…").
    const link = new URL((await api.share(name, format, Number(quality))).link, location.href).href;
    const shown = document.getElementById('share-link');
    shown.href = link;
    shown.textContent = link;
    shown.hidden = false;
    if (navigator.share && navigator.canShare?.({ url: link }) !== false) {
      try {
        await navigator.share({ title: name, url: link });
        say(`shared: ${link}`);
        return link;
      } catch (error) {
        // Closed without choosing: the link stays in the Export panel, nothing else is done.
        if (error.name === 'AbortError') { say(`link made (not sent): ${link}`); return link; }
      }
    }
    try {
      await navigator.clipboard.writeText(link);
      say(`link copied: ${link}`);
    } catch (error) {
      say(`link made: ${link} (copy it from the Export panel)`);
    }
    return link;
  }

  async recommend(name) {
    const title = prompt('Title for the recommendation', name);
    if (title === null) return;
    const tags = (prompt('Tags, separated by spaces', '') || '').split(/\s+/).filter(Boolean);
    try {
      const item = await api.recommend(name, title, tags);
      say(`recommended in ${item.week} at #${item.position}`);
    } catch (error) { fail(error); }
  }
}

function button(text, title, action, disabled = false) {
  const b = document.createElement('button');
  b.type = 'button';
  b.textContent = text;
  b.title = title;
  b.setAttribute('aria-label', title);
  b.disabled = disabled;
  b.addEventListener('click', action);
  return b;
}
