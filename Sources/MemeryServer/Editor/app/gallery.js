// The gallery: thumbnails, search, favourites, trash and restore, random, drag to reorder,
// and every way to start a creation (a picture chosen, dropped, taken with the camera or
// taken from a link or a web search, a blank canvas, a garage image, a template).
import { api } from './api.js';
import { say, fail } from './status.js';
import { linkForm } from './link.js';
import { webSearch } from './websearch.js';
import { touching } from './pointer.js';

export class Gallery {
  constructor(open) {
    this.open = open;  // called with a creation's name
    this.list = document.getElementById('thumbnails');
    this.search = document.getElementById('search');
    this.favorites = document.getElementById('show-favorites');
    this.trash = document.getElementById('show-trash');
    this.entries = [];
    // On a phone the other ways to start fold away, so the creations are in reach; a wider
    // screen has room for them open.
    if (matchMedia('(min-width: 40rem)').matches) document.getElementById('more-sources').open = true;
    for (const input of [this.search, this.favorites, this.trash]) input.addEventListener('input', () => this.refresh());
    document.getElementById('random').addEventListener('click', () => {
      if (this.entries.length) this.open(this.entries[Math.floor(Math.random() * this.entries.length)].name);
      else say(this.search.value || this.favorites.checked || this.trash.checked
        ? 'no creation here to pick from: clear the search or the ticks above'
        : 'no creations yet to pick from: start one from a picture above');
    });
    // A button, not a label, opens the file picker: a keyboard reaches buttons. Without a
    // `capture` attribute, a phone offers its photos as well as its camera.
    const upload = document.getElementById('upload');
    document.getElementById('choose-picture').addEventListener('click', () => upload.click());
    // Emptied after each choice, so that choosing the same picture again is a change too.
    const chosen = (event) => {
      const file = event.target.files[0];
      event.target.value = '';
      if (file) this.startFrom(file);
    };
    upload.addEventListener('change', chosen);
    document.getElementById('camera-input').addEventListener('change', chosen);
    document.getElementById('blank-form').addEventListener('submit', (event) => {
      event.preventDefault();
      this.make({ canvas: document.getElementById('blank-size').value, background: document.getElementById('blank-color').value });
    });
    linkForm(document.getElementById('link-form'), (item) => this.make({ garage: item.name }));
    webSearch(document.getElementById('web-search-form'), document.getElementById('web-results'), (item) => this.make({ garage: item.name }));
    document.getElementById('from-garage').addEventListener('change', (event) => event.target.value && this.make({ garage: event.target.value }));
    document.getElementById('from-template').addEventListener('change', (event) => event.target.value && this.make({ template: event.target.value }));
    document.getElementById('camera').addEventListener('click', () => this.camera());
    document.addEventListener('dragover', (event) => event.preventDefault());
    document.addEventListener('drop', (event) => {
      const file = [...(event.dataTransfer?.files || [])].find((f) => f.type.startsWith('image/'));
      if (file && !document.getElementById('gallery-view').hidden) { event.preventDefault(); this.startFrom(file); }
    });
  }

  async refresh() {
    // Answers may come back out of order (a search typed fast): only the latest question's is shown.
    const asked = this.asked = (this.asked || 0) + 1;
    try {
      const { creations } = await api.gallery({ search: this.search.value, favorites: this.favorites.checked, trash: this.trash.checked });
      if (asked !== this.asked) return;
      this.entries = creations;
      this.list.replaceChildren(...creations.map((c, index) => this.thumbnail(c, index)));
      this.showEmptiness(creations.length === 0);
      const [{ images }, { templates }] = await Promise.all([api.garage(), api.templates()]);
      fillSelect(document.getElementById('from-garage'), images.map((i) => i.name));
      fillSelect(document.getElementById('from-template'), templates.map((t) => t.name));
    } catch (error) { fail(error); }
  }

  // What an empty list means here: nothing yet, nothing found, nothing in the trash.
  showEmptiness(empty) {
    const note = document.getElementById('gallery-empty');
    const search = this.search.value.trim();
    note.hidden = !empty;
    note.textContent = this.trash.checked ? (search ? `Nothing in the trash matches “${search}”.` : 'The trash is empty.')
      : search ? `No creation matches “${search}”.`
      : this.favorites.checked ? 'No favourites yet: ☆ a creation to keep it here.'
      : `No creations yet: start from a picture, the camera or a blank canvas above${touching() ? '' : ', or drop a picture here'}.`;
    document.getElementById('gallery-heading').textContent = this.trash.checked ? 'In the trash' : this.favorites.checked ? 'Favourites' : 'Your creations';
  }

  thumbnail(creation, index) {
    const item = document.createElement('li');
    item.className = 'thumbnail';
    item.draggable = !creation.trashed;
    item.dataset.name = creation.name;
    const button = document.createElement('button');
    button.type = 'button';
    button.className = 'open';
    button.setAttribute('aria-label', `Open ${creation.name}`);
    const image = document.createElement('img');
    image.loading = 'lazy';
    image.alt = '';
    image.src = api.renderURL(creation.name, { width: 240 }) + `&v=${creation.events}`;
    button.append(image);
    const title = document.createElement('span');
    title.className = 'title';
    title.textContent = (creation.favorite ? '★ ' : '') + creation.name;
    item.append(button, title);
    const action = (text, label, handler) => {
      const control = document.createElement('button');
      control.type = 'button';
      control.textContent = text;
      control.setAttribute('aria-label', label);
      control.title = label;
      control.addEventListener('click', handler);
      return control;
    };
    const actions = document.createElement('div');
    actions.className = 'actions';
    if (creation.trashed) {
      actions.append(action('Restore', `Restore ${creation.name}`, () => this.change(creation.name, { op: 'restore' }, 'restored')));
    } else {
      button.addEventListener('click', () => this.open(creation.name));
      actions.append(
        action(creation.favorite ? '★' : '☆', `${creation.favorite ? 'Unfavourite' : 'Favourite'} ${creation.name}`,
          () => this.change(creation.name, { op: creation.favorite ? 'unfavorite' : 'favorite' }, creation.favorite ? 'no longer a favourite' : 'favourite')),
        action('Rename', `Rename ${creation.name}`, () => {
          const to = prompt('New name', creation.name);
          if (to && to !== creation.name) this.change(creation.name, { op: 'rename', to }, `renamed to ${to}`);
        }),
        action('Trash', `Move ${creation.name} to the trash`, () => this.change(creation.name, { op: 'delete' }, 'moved to the trash')));
      actions.lastElementChild.classList.add('trash');  // set apart from Rename: a slip of the finger is costly
    }
    item.append(actions);
    item.addEventListener('dragstart', (event) => event.dataTransfer.setData('text/x-memery', creation.name));
    item.addEventListener('dragover', (event) => event.preventDefault());
    item.addEventListener('drop', (event) => {
      const moved = event.dataTransfer.getData('text/x-memery');
      if (!moved || moved === creation.name) return;
      event.preventDefault();
      event.stopPropagation();
      this.change(moved, { op: 'move', to: index + 1 }, `moved to ${index + 1}`);
    });
    return item;
  }

  async change(name, edit, what) {
    try { await api.edit(name, edit); say(`${name}: ${what}`); await this.refresh(); } catch (error) { fail(error); }
  }

  async startFrom(file) {
    if (!file) return;
    try {
      say(`importing ${file.name || 'the picture'}…`);
      const created = await api.upload(file);
      say(`imported ${file.name || 'the picture'} as ${created.name}`);
      this.open(created.name);
    } catch (error) { fail(error); }
  }

  async make(fields) {
    try { this.open((await api.create(fields)).name); } catch (error) { fail(error); }
  }

  // The webcam, which browsers allow on localhost. Where there is none to ask for (a page
  // not on localhost or https, an old browser), the file picker's camera, as on a phone.
  async camera() {
    if (!navigator.mediaDevices?.getUserMedia) { document.getElementById('camera-input').click(); return; }
    const box = document.getElementById('camera-box');
    const video = document.getElementById('camera-video');
    let stream;
    const close = () => {
      stream?.getTracks().forEach((track) => track.stop());
      video.srcObject = null;
      box.hidden = true;
    };
    // The back camera first (a meme of what is in front of you); Switch turns to the other.
    const start = async () => {
      stream?.getTracks().forEach((track) => track.stop());
      stream = await navigator.mediaDevices.getUserMedia({ video: { facingMode: { ideal: this.facing || 'environment' } } });
      video.srcObject = stream;
    };
    try {
      await start();
      box.hidden = false;
      document.getElementById('camera-cancel').onclick = close;
      document.getElementById('camera-switch').onclick = async () => {
        this.facing = (this.facing || 'environment') === 'environment' ? 'user' : 'environment';
        try { await start(); } catch (error) { fail(new Error(`could not switch cameras: ${error.message}`)); }
      };
      box.onkeydown = (event) => { if (event.key === 'Escape') close(); };
      const shoot = document.getElementById('camera-shoot');
      shoot.onclick = () => {
        const canvas = document.createElement('canvas');
        canvas.width = video.videoWidth;
        canvas.height = video.videoHeight;
        canvas.getContext('2d').drawImage(video, 0, 0);
        close();
        // Named by when it was taken ("photo 2026-12-03 19.57"), as a phone names its photos:
        // a gallery of "camera", "camera 2", "camera 3" says nothing.
        const now = new Date(), two = (n) => String(n).padStart(2, '0');
        const taken = `photo ${now.getFullYear()}-${two(now.getMonth() + 1)}-${two(now.getDate())} ${two(now.getHours())}.${two(now.getMinutes())}`;
        canvas.toBlob((blob) => this.startFrom(new File([blob], `${taken}.png`, { type: 'image/png' })), 'image/png');
      };
      shoot.focus();
    } catch (error) {
      close();
      fail(new Error(`no camera: ${error.message}`));
    }
  }
}

export function fillSelect(select, values, keepFirst = true) {
  const first = keepFirst ? [...select.options].slice(0, 1) : [];
  select.replaceChildren(...first, ...values.map((value) => new Option(value, value)));
}
