// The editor page: the gallery or one creation, kept in step with the store. Every change
// goes through the HTTP API as an edit; the picture shown is always the engine's render.
import { showAccount } from './account.js';
import { api } from './api.js';
import { loading } from './busy.js';
import { Stage } from './canvas.js';
import { Gallery } from './gallery.js';
import { History } from './history.js';
import { Hub } from './hub.js';
import { spoken } from './layername.js';
import { Panels } from './panels.js';
import { touching } from './pointer.js';
import { Room } from './room.js';
import { Sheets } from './sheets.js';
import { say, fail } from './status.js';
import { Tools } from './tools.js';

class Editor {
  constructor() {
    this.name = null;
    this.creation = null;  // the state, as `memery show --json` gives it
    this.selected = null;  // a layer id
    this.tool = 'select';
    this.showingPast = false;  // the time slider shows an older picture: nothing of it can be selected
    this.gallery = new Gallery((name) => this.open(name));
    this.hub = new Hub((name) => this.open(name));
    this.stage = new Stage(this);
    this.tools = new Tools(this);
    this.panels = new Panels(this);
    this.history = new History(this);
    this.sheets = new Sheets(this);
    this.room = new Room(this);
    this.captions = { top: document.getElementById('top-caption'), bottom: document.getElementById('bottom-caption') };
    this.drafts = {};  // words put back after a sign-in, not sent yet: no reload overwrites them
    for (const [which, input] of Object.entries(this.captions)) {
      input.addEventListener('input', () => this.previewTyping(which));
      // Escape takes the words typed back: the field and the picture show what is stored,
      // and nothing is sent.
      input.addEventListener('keydown', (event) => {
        if (event.isComposing || event.keyCode === 229) return;  // an input method's own Enter and Escape
        // On a phone Enter is the keyboard's Done: the words are stored and the field left,
        // so that the keyboard goes and the tools come back.
        if (event.key === 'Enter' && touching()) { input.blur(); return; }
        if (event.key !== 'Escape' || !this.creation) return;
        event.preventDefault();
        clearTimeout(this.typingPause);
        delete this.drafts[which];
        input.value = this.keptCaption(which);
        input.blur();
        this.showPicture();
        say(`${which} caption left as it was`);
      });
      input.addEventListener('change', async () => {
        clearTimeout(this.typingPause);  // a preview still to come would cover what was stored
        delete this.drafts[which];  // sent now: the field shows what the creation holds again
        sessionStorage.removeItem('memery-drafts');
        // A refused caption goes back to the words kept: the message says why, and the field
        // must not look as if they were saved.
        input.dataset.sent = input.value;
        const kept = await this.commit({ op: 'text', [which]: input.value }, input.value.trim() ? `${which} caption set` : `${which} caption removed`);
        if (!kept && this.creation) input.value = this.keptCaption(which);
      });
    }
    // Signed out elsewhere with words typed and not yet sent: they wait in this tab's
    // session storage and are put back when the same creation opens after signing in.
    window.addEventListener('memery-signing-out', () => this.keepDrafts());
    // Leaving the page (Back past the editor, the tab closed) with words not sent: kept the
    // same way, for this tab's next visit to the creation.
    window.addEventListener('pagehide', () => this.keepDrafts());
    // Back from the browser's cache, the page is as it was: the words are in their fields.
    window.addEventListener('pageshow', (event) => { if (event.persisted) sessionStorage.removeItem('memery-drafts'); });
    // A preview the engine refuses all the same (words it would not take, a setting out of
    // range, a filter removed meanwhile: a 400): the stored picture, not a broken one.
    this.stage.picture.addEventListener('error', () => {
      const shown = this.stage.picture.getAttribute('src') || '';
      if (this.creation && !new URL(shown, location.href).pathname.endsWith('/render')) this.showPicture();
    });
    document.getElementById('remove-chosen').addEventListener('click', () => {
      const layer = this.selectedLayer();
      if (layer) this.commit({ op: 'layer remove', id: layer.id }, `removed ${spoken(layer)} (Undo brings it back)`);
    });
    this.wireExport();
    document.getElementById('home').addEventListener('click', (event) => { event.preventDefault(); location.hash = ''; });
    window.addEventListener('hashchange', () => this.route());
    api.changes((change) => this.changed(change));
    this.panels.load();
    this.hub.load().then(() => showAccount(this.hub.status));
    this.route();
  }

  stageElement() { return this.stage.stage; }
  brushColor() { return document.getElementById('brush-color').value; }
  brushWidth() { return Number(document.getElementById('brush-width').value); }
  selectedLayer() { return this.creation?.layers.find((layer) => layer.id === this.selected) || null; }
  // The words the creation holds in its top or bottom caption ('' for none).
  keptCaption(which) { return this.creation?.layers.find((layer) => layer.role === which)?.text ?? ''; }
  // The engine's picture as wide as it shows: the stage's width, zoom and pixel density,
  // never wider than the canvas (zoomed in, the picture is drawn again, sharp).
  previewWidth() {
    const shown = Math.ceil((this.stage.stage.clientWidth || 800) * this.stage.zoom * (window.devicePixelRatio || 1));
    return Math.min(this.creation?.width || shown, shown);
  }

  route() {
    const name = decodeURIComponent(location.hash.replace(/^#\/?creation\//, ''));
    if (location.hash.startsWith('#/creation/') && name) this.show(name); else this.showGallery();
  }

  open(name) { location.hash = `#/creation/${encodeURIComponent(name)}`; }

  // Words typed into a caption and not yet sent, sent as the page leaves the creation (Back,
  // the gallery, another creation): what the picture showed is what is kept.
  saveTypedWords() {
    if (!this.name || !this.creation) return;
    clearTimeout(this.typingPause);
    this.stage.inlineText.blur();  // a text box's words: sent as leaving their field sends them
    for (const [which, input] of Object.entries(this.captions)) {
      // A field being typed in is left: its own change event sends the words, once.
      if (document.activeElement === input) { input.blur(); continue; }
      if (input.value === this.keptCaption(which) || input.value === input.dataset.sent) continue;
      input.dataset.sent = input.value;
      this.commit({ op: 'text', [which]: input.value }, `${which} caption set`);
    }
  }

  showGallery() {
    this.saveTypedWords();
    this.visits = (this.visits || 0) + 1;
    if (this.name) say(this.leaving || '');
    this.leaving = null;
    this.name = null;
    document.getElementById('creation-title').textContent = '';
    document.getElementById('gallery-view').hidden = false;
    document.getElementById('editor-view').hidden = true;
    this.gallery.refresh();
    this.hub.refresh();
  }

  async show(name) {
    document.getElementById('gallery-view').hidden = true;
    document.getElementById('editor-view').hidden = false;
    // The same creation under the name this page just gave it: nothing of it is reset (the
    // sheet, what was said), only the name follows.
    if (this.name !== name && name !== this.renamingTo) {
      this.saveTypedWords();
      this.visits = (this.visits || 0) + 1;
      for (const input of Object.values(this.captions)) input.value = '';  // the last one's words are not this one's
      // Another creation: nothing said about the last one, and no preview of it, stays.
      this.selected = null;
      this.creation = null;  // the last one's state must not answer for this one (its id, its layers)
      this.drafts = {};
      this.room.dismiss();
      document.getElementById('share-link').hidden = true;
      if (this.panels.previewing()) this.panels.dropPreview();
      // Each creation opens on Text (its captions first), not on the task left open in the last.
      if (this.sheets.current !== 'text' || this.sheets.sheet.hidden) this.sheets.open('text');
      say('');
    }
    this.name = name;
    if (name === this.renamingTo) this.renamingTo = null;
    await this.reload();
    this.restoreDrafts();
    this.tools.refreshStickers();
  }

  // The picture with a caption's words as typed, at each pause in typing: stored nowhere
  // until Enter or leaving the field makes them one edit.
  previewTyping(which) {
    this.previewWords(this.captions[which], { caption: which }, () => this.keptCaption(which));
  }

  // The same for any field of words: `place` is { caption } or { layer }, `kept` the words
  // the creation holds there (the stored picture is shown again when the field has them).
  previewWords(input, place, kept) {
    clearTimeout(this.typingPause);
    this.typingPause = setTimeout(() => {
      if (!this.creation || this.showingPast) return;
      // Left meanwhile, the same words as stored, or a box emptied to be typed again (which
      // the engine would refuse): the stored picture.
      if (document.activeElement !== input || input.value === kept() || (place.layer && !input.value.trim())) { this.showPicture(); return; }
      this.showPictureURL(api.textPreviewURL(this.name, { ...place, text: input.value, width: this.previewWidth(), version: this.creation.events }));
    }, 120);
  }

  stopPreviewingWords() { clearTimeout(this.typingPause); }

  keepDrafts() {
    if (!this.name || !this.creation) return;
    const drafts = {};
    for (const [which, input] of Object.entries(this.captions)) {
      if (input.value !== this.keptCaption(which)) drafts[which] = input.value;
    }
    if (Object.keys(drafts).length) sessionStorage.setItem('memery-drafts', JSON.stringify({ id: this.creation.id, drafts }));
  }

  restoreDrafts() {
    const kept = JSON.parse(sessionStorage.getItem('memery-drafts') || 'null');
    if (!kept || kept.id !== this.creation?.id) return;
    sessionStorage.removeItem('memery-drafts');
    for (const [which, text] of Object.entries(kept.drafts)) {
      if (!this.captions[which]) continue;
      this.captions[which].value = text;
      this.drafts[which] = text;
    }
    say('the words you had typed and not yet saved are back: press Enter in the field to save them');
  }

  // The creation's state, picture and history, read again (after an edit, or a change elsewhere).
  async reload() {
    if (!this.name) return;
    try {
      this.creation = await api.creation(this.name);
      document.title = `${this.creation.name} — Memery`;
      document.getElementById('creation-title').textContent = this.creation.name;
      this.stage.fit();
      this.showPicture();
      for (const [which, input] of Object.entries(this.captions)) {
        delete input.dataset.sent;  // read again: what the creation holds says what is sent
        if (document.activeElement !== input && this.drafts[which] === undefined) input.value = this.keptCaption(which);
        else if (document.activeElement === input) this.previewTyping(which);  // a change from elsewhere, under words being typed
      }
      this.stage.previewOpenWords();  // and a text box's words being typed, the same way
      if (!this.selectedLayer()) this.selected = null;
      this.showChosenActions();
      this.tools.showMoves(this.creation);
      this.panels.showLayers(this.creation, this.selected);
      this.panels.showStyle(this.selectedLayer());
      const favorite = document.getElementById('favorite');
      favorite.setAttribute('aria-pressed', String(this.creation.favorite));
      favorite.textContent = this.creation.favorite ? '★ Favourite' : '☆ Favourite';
      this.updateExportLink();
      // The history tree only while its sheet is open (a 3,000-event tree is not free).
      if (this.sheets.showing('history')) await this.history.refresh(this.name); else this.history.stale = true;
      if (this.sheets.showing('filters')) this.panels.showStrip();
    } catch (error) { fail(error); }
  }

  // The engine's picture now, or as it was right after event `version` (the time slider).
  showPicture(version) {
    if (version === undefined && !this.creation) return;  // (another creation opening: its picture comes with it)
    this.showPictureURL(api.renderURL(this.name, { width: this.previewWidth(), version: version ?? this.creation.events }));
  }

  showPictureURL(url) {
    const picture = this.stage.picture;
    if (picture.getAttribute('src') !== url) {
      loading(picture);
      picture.src = url;
    }
    // The version shown, for a render of the creation only: a preview (words as typed, a
    // filter) carries the version it was drawn on, and is not that version.
    const address = new URL(url, location.href);
    picture.dataset.version = address.pathname.endsWith('/render') ? address.searchParams.get('version') || '' : '';
  }

  async hit(point) {
    try { return (await api.hit(this.name, Math.round(point.x), Math.round(point.y))).layer; } catch (error) { fail(error); return null; }
  }

  select(id) {
    this.selected = id;
    this.showChosenActions();
    this.stage.showSelection();
    this.panels.showLayers(this.creation, id);
    this.panels.showStyle(this.selectedLayer());
  }

  // Remove, beside Undo, while a layer is chosen: wherever the person is (the Stickers sheet,
  // the picture), the way to take it off is in reach, not only in the Text sheet's list.
  showChosenActions() {
    const layer = this.selectedLayer();
    const remove = document.getElementById('remove-chosen');
    remove.hidden = !layer || this.showingPast;
    if (layer) remove.setAttribute('aria-label', `Remove ${spoken(layer)}`);
  }

  // One edit (one gesture), committed; then the page shows what the engine made of it.
  // True when the edit was taken.
  async commit(edit, what) {
    if (!this.name) return false;
    // The creation it was made on: the page may leave it before the answer (words saved as
    // the person goes back to the gallery), and must not be sent back to it then.
    // (Left by going elsewhere, counted: a rename followed meanwhile is the same creation.)
    let name = this.name;
    const visit = this.visits;
    const left = () => this.visits !== visit;
    this.room.dismiss();  // an offer to grow the canvas is about the edit before this one
    this.inFlight = (this.inFlight || 0) + 1;
    try {
      let result;
      try {
        result = await api.edit(name, edit);
      } catch (error) {
        // Renamed elsewhere while this page held the old name: the edit goes to the same
        // creation under its new name, once, rather than being lost.
        if (left() || error.status !== 404 || !(await this.followRename())) throw error;
        name = this.name;  // the same creation, followed to its new name
        result = await api.edit(name, edit);
      }
      if (left()) return true;
      // The event stream will tell of this edit too: it is already shown, so it need not reload.
      this.lastSeen = Math.max(this.lastSeen || 0, ...result.results.map((r) => r.seq || 0));
      if (result.creation !== this.name) { this.open(result.creation); return true; }
      const added = result.results.find((r) => r.layerId)?.layerId;
      if (added && edit.op !== 'draw') this.selected = added;
      say(result.changed ? (typeof what === 'function' ? what(result, this) : what) : 'nothing to change');
      await this.reload();
      return true;
    } catch (error) { fail(error); if (!left()) await this.reload(); return false; } finally { this.inFlight -= 1; }
  }

  // The open creation found again by its id, which no rename changes; true when it is there
  // under another name, which the page now follows.
  async followRename() {
    const id = this.creation?.id?.toLowerCase();
    if (!id) return false;
    try {
      const { creations } = await api.gallery();
      const now = creations.find((c) => c.id.toLowerCase() === id);
      if (!now || now.name === this.name) return false;
      this.follow(now.name);
      return true;
    } catch (error) { return false; }
  }

  // The same creation under a new name: the address and the title follow, without a reload
  // of the page (a caption being typed stays).
  follow(name) {
    const was = this.name;
    this.name = name;
    history.replaceState(null, '', `#/creation/${encodeURIComponent(name)}`);
    document.getElementById('creation-title').textContent = name;
    say(`renamed elsewhere: “${was}” is now “${name}”`);
  }

  // A change to the store, from this page or anywhere else. One this page did not make (no
  // edit of its own under way) is said: another device, window or command changed it. An
  // edit of this page's under way is not lost: the server decides it on the newest state.
  changed(change) {
    if (this.name && change.kind === 'gallery' && change.creation && change.creation !== this.name && change.creation !== this.renamingTo
        && change.id && change.id.toLowerCase() === this.creation?.id?.toLowerCase()) {
      this.follow(change.creation);
      this.reload();
    } else if (this.name && change.kind === 'creation' && change.creation === this.name) {
      if (change.sequence > (this.lastSeen || 0)) {
        this.lastSeen = change.sequence;
        // Said only when the creation did move: a change the page opened after (the feed
        // tells of it a moment late) is already shown.
        // An edit of this page's under way when the word came is its own, whenever it ends.
        const own = this.inFlight > 0;
        const before = this.creation?.events;
        this.reload().then(() => {
          // (Before the page had the creation, it was still opening it: nothing changed for it.)
          if (!own && !this.inFlight && before !== undefined && this.creation && this.creation.events !== before) say('changed elsewhere (another device, window or command): showing the newest');
        });
      }
    } else if (!this.name) {
      this.gallery.refresh();
    }
  }

  wireExport() {
    const format = document.getElementById('export-format');
    const quality = document.getElementById('export-quality');
    for (const input of [format, quality]) input.addEventListener('input', () => this.updateExportLink());
    // A quality out of 1-100 is said at a press of Download or Share, which then do nothing.
    document.getElementById('export-link').addEventListener('click', (event) => {
      const { problem } = exportChoice();
      if (problem) { event.preventDefault(); fail(new Error(problem)); }
    });
    document.getElementById('copy').addEventListener('click', async () => {
      try {
        const blob = await api.exported(this.name, 'png', 90);
        await navigator.clipboard.write([new ClipboardItem({ 'image/png': blob })]);
        say('copied the picture');
      } catch (error) { fail(new Error(`could not copy: ${error.message}`)); }
    });
    document.getElementById('recommend').addEventListener('click', () => this.hub.recommend(this.name));
    document.getElementById('share').addEventListener('click', async () => {
      const choice = exportChoice();
      if (choice.problem) { fail(new Error(choice.problem)); return; }
      if (this.hub.connected) {
        try { await this.hub.share(this.name, choice.format, choice.quality); } catch (error) { fail(error); }
        return;
      }
      try {
        const blob = await api.exported(this.name, choice.format, choice.quality);
        const file = new File([blob], `${this.name}.${choice.format === 'jpeg' ? 'jpg' : choice.format}`, { type: blob.type });
        if (navigator.canShare?.({ files: [file] })) {
          try { await navigator.share({ files: [file], title: this.name }); } catch (error) { if (error.name !== 'AbortError') fail(error); }
        } else {
          // No share sheet here: a download instead, and the person is told which happened.
          document.getElementById('export-link').click();
          say(`this browser has no share sheet: the picture was downloaded as ${file.name}`);
        }
      } catch (error) { fail(new Error(`could not share: ${error.message}`)); }
    });
    const gallery = (edit, what) => async () => {
      try { await api.edit(this.name, edit); say(what); await this.reload(); } catch (error) { fail(error); }
    };
    document.getElementById('favorite').addEventListener('click', () =>
      gallery({ op: this.creation.favorite ? 'unfavorite' : 'favorite' }, 'favourite changed')());
    document.getElementById('trash').addEventListener('click', async () => {
      try {
        await api.edit(this.name, { op: 'delete' });
        // Said in the gallery, where the page goes, with the way back.
        this.leaving = `“${this.name}” moved to the trash: tick Trash above to see it and restore it`;
        location.hash = '';
      } catch (error) { fail(error); }
    });
    document.getElementById('rename').addEventListener('click', async () => {
      const to = prompt('New name', this.name);
      if (!to || to === this.name) return;
      this.renamingTo = to;  // its news on the event stream is this page's own, until the page shows it
      try {
        const result = await api.edit(this.name, { op: 'rename', to });
        say(`renamed to ${result.creation}`);
        this.renamingTo = result.creation;
        this.open(result.creation);
      } catch (error) { this.renamingTo = null; fail(error); }
    });
    document.getElementById('save-template').addEventListener('click', async () => {
      const template = prompt('Template name (a template keeps the picture, captions and text boxes; stickers, shapes and drawings stay here)', this.name);
      if (template) gallery({ op: 'template save', template }, `saved as template “${template}”: its picture, captions and text boxes start new creations (From a template, in the gallery)`)();
    });
  }

  updateExportLink() {
    const { format, quality, problem } = exportChoice();
    const link = document.getElementById('export-link');
    link.href = api.exportURL(this.name, format, quality);
    // Quality means something to JPEG and WebP only.
    document.getElementById('export-quality-label').hidden = !['jpeg', 'webp'].includes(format);
    document.getElementById('export-quality').setAttribute('aria-invalid', String(Boolean(problem)));
    link.setAttribute('aria-disabled', String(Boolean(problem)));
    link.download = `${this.name}.${format === 'jpeg' ? 'jpg' : format}`;
  }
}

// The Export sheet's format and quality as an export asks for them. A quality is sent only
// where it means something (JPEG, WebP): one typed out of range and then hidden by choosing
// PNG made every PNG download an error. `problem`: why this cannot be exported as it stands.
function exportChoice() {
  const format = document.getElementById('export-format').value;
  if (!['jpeg', 'webp'].includes(format)) return { format, quality: 90 };
  const typed = document.getElementById('export-quality').value.trim();
  const quality = Number(typed);
  const problem = /^\d+$/.test(typed) && quality >= 1 && quality <= 100 ? undefined
    : `quality is a whole number from 1 to 100 (more keeps more detail in a bigger file), not “${typed}”`;
  return { format, quality, problem };
}

window.memery = new Editor();
