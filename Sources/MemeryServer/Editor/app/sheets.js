// The tool bar and its sheets: one task at a time (Text, Stickers, Draw, Filters, Crop and
// turn, History, Export), each in a sheet that leaves the picture in view: under the
// picture on a phone, beside it on a desktop. Tapping the open task's button on a phone
// closes its sheet, for the most room for the picture. What the stage does with a finger
// follows the task: Draw draws, Crop crops, every other selects.
import { forgetFailure, say } from './status.js';

const phone = window.matchMedia('(max-width: 760px) and (not ((max-height: 500px) and (orientation: landscape)))');

export class Sheets {
  constructor(editor) {
    this.editor = editor;
    this.sheet = document.getElementById('sheet');
    this.buttons = [...document.querySelectorAll('.tool-bar [data-sheet]')];
    this.pages = [...document.querySelectorAll('.sheet-page')];
    this.current = 'text';
    for (const button of this.buttons) {
      button.addEventListener('click', () => {
        const name = button.dataset.sheet;
        if (name === this.current && !this.sheet.hidden && phone.matches) this.close(); else this.open(name);
      });
    }
    // A desktop always shows a sheet: a phone turned on its side gets its sheet back.
    phone.addEventListener('change', () => { if (!phone.matches) this.open(this.current); });
  }

  open(name) {
    this.editor.stage.resetZoom();  // a tool opens on the whole picture
    const leaving = this.current;
    this.current = name;
    this.sheet.hidden = false;
    for (const page of this.pages) page.hidden = page.dataset.sheet !== name;
    if (leaving !== name) this.sheet.scrollTop = 0;  // each task opens at its top, not where the last was scrolled
    for (const button of this.buttons) button.setAttribute('aria-pressed', String(button.dataset.sheet === name));
    this.sheet.setAttribute('aria-label', this.buttons.find((b) => b.dataset.sheet === name)?.textContent.trim() || name);
    if (leaving !== name) { this.left(leaving); forgetFailure(); }
    if (name === 'draw' && !['brush', 'eraser'].includes(this.editor.tool)) this.editor.tools.use('brush');
    if (name !== 'draw' && name !== 'crop') this.editor.tools.use('select');
    if (name === 'history' && this.editor.history.stale && this.editor.name) this.editor.history.refresh(this.editor.name);
    if (name === 'filters') this.editor.panels.showStrip();
  }

  showing(name) { return this.current === name && !this.sheet.hidden; }

  close() {
    this.sheet.hidden = true;
    for (const button of this.buttons) button.setAttribute('aria-pressed', 'false');
    this.left(this.current);
    this.editor.tools.use('select');
  }

  // A filter preview belongs to the Filters sheet: once it is closed, the picture is again
  // what is applied (and what a download gives).
  left(name) {
    // The past the time slider showed belongs to the History sheet too.
    if (name === 'history' && this.editor.showingPast) {
      this.editor.showingPast = false;
      this.editor.showChosenActions();
      this.editor.history.stale = true;
      this.editor.showPicture();
      this.editor.stage.showSelection();
      say('back to now');
    }
    if (name === 'filters') clearTimeout(this.editor.panels.pending);  // a preview still to come, of a slider left
    if (name === 'filters' && this.editor.panels.previewing()) {
      const dropped = this.editor.panels.dropPreview();
      say(`the ${dropped} preview was not applied: the picture is as before`);
    }
  }

  // The sheet that holds element `id` (the tests, and links from messages, open it).
  reveal(id) {
    const page = document.getElementById(id)?.closest('.sheet-page');
    if (page && (page.hidden || this.sheet.hidden)) this.open(page.dataset.sheet);
  }
}
