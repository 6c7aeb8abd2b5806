// The toolbar and the keyboard: which tool the stage uses, what to add, the picture's
// turns and flips, and undo and redo (Ctrl+Z, Ctrl+Shift+Z or Ctrl+Y; not while typing).
// Other keys go to the stage, which moves, turns and scales the selected layer with them.
import { api } from './api.js';
import { fillSelect } from './gallery.js';
import { fail, say } from './status.js';
import { knowStickers } from './layername.js';
import { linkForm } from './link.js';

// The emoji a meme reaches for most; any other can be typed.
const EMOJI = ['😂', '🤣', '😭', '😍', '😎', '🤔', '😱', '🙄', '😏', '🥺', '😤', '🤯', '💀', '🤡', '👀', '🔥',
  '💯', '👍', '👎', '👏', '🙏', '💪', '❤️', '💔', '🎉', '✨', '🚀', '⚡', '💩', '🐸', '🍿', '🧠'];

// What an undo or a redo says: where the creation is now, in the History list's words
// ("undone: back to #12, the edit that added “HI”"), so that three undos in a row each say
// what they reached, and an edit reached is not read as the one taken back.
const moved = (word, way) => (result, editor) => {
  const head = result.results.find((r) => r.head)?.head;
  return head ? `${word}: ${way} #${head.version}, the edit that ${editor.panels.named(head.summary)}` : word;
};
const undone = moved('undone', 'back to'), redone = moved('redone', 'forward to');

export class Tools {
  constructor(editor) {
    this.editor = editor;
    this.garage = [];
    this.buttons = [...document.querySelectorAll('[data-tool]')];
    for (const button of this.buttons) button.addEventListener('click', () => this.use(button.dataset.tool));
    const on = (id, handler) => document.getElementById(id).addEventListener('click', handler);
    on('undo', () => this.move('undo'));
    on('redo', () => this.move('redo'));
    // Each new layer a step down and to the right of the last one, not on top of it.
    const cascade = () => ((editor.creation.layers.length % 6) - 2.5) * 0.04;
    on('add-text', () => {
      const { width, height } = editor.creation;
      const step = cascade();
      // Its words open at once, chosen, to be typed over.
      editor.commit({ op: 'text add', text: 'Your text', box: [width * (0.2 + step), height * (0.4 + step), width * 0.6, height * 0.2].map(Math.round) },
        'added a text box: type its words').then((taken) => { if (taken) editor.stage.editText(editor.selected, { chooseAll: true }); });
    });
    const shape = (kind) => () => {
      const { width, height } = editor.creation;
      const step = cascade();
      editor.commit({ op: 'shape add', [kind]: [width * (0.35 + step), height * (0.35 + step), width * 0.3, height * 0.3].map(Math.round),
        fill: editor.brushColor(), alpha: 0.5, stroke: '#000000', 'stroke-width': 2 }, `added ${kind === 'rect' ? 'a rectangle' : 'an ellipse'} (the style panel changes its colours)`);
    };
    on('add-rect', shape('rect'));
    on('add-ellipse', shape('ellipse'));
    // A sticker lands on the one of nine spots spread over the picture (the middle first)
    // farthest from every layer already there, so that it hides none of them: counting the
    // stickers would land it on one left after another was removed.
    const SPOTS = [[0.5, 0.5], [0.27, 0.3], [0.73, 0.3], [0.27, 0.7], [0.73, 0.7], [0.5, 0.27], [0.5, 0.73], [0.27, 0.5], [0.73, 0.5]];
    const stickerAt = () => {
      const { width, height, layers } = editor.creation;
      const centres = layers.filter((l) => l.kind !== 'drawing').map((l) => [l.transform.x, l.transform.y]);
      let best = SPOTS[0], farthest = -1;
      for (const [sx, sy] of SPOTS) {
        const nearest = Math.min(Infinity, ...centres.map(([x, y]) => Math.hypot(x - width * sx, y - height * sy)));
        if (nearest > farthest + 1) { best = [sx, sy]; farthest = nearest; }
      }
      return [Math.round(width * best[0]), Math.round(height * best[1])];
    };
    // A picture of the person's (any size, a photo of 4000 pixels as well as an icon of 64)
    // scaled to fit two fifths of the canvas and centred where the next sticker goes.
    const pictureAt = (image) => {
      const { width, height } = editor.creation;
      const scale = Math.round(Math.min(4, Math.max(0.01, Math.min((width * 0.4) / image.width, (height * 0.4) / image.height))) * 1000) / 1000;
      const [x, y] = stickerAt();
      return { scale, at: [Math.round(x - (image.width * scale) / 2), Math.round(y - (image.height * scale) / 2)] };
    };
    const addPicture = (item, what) => editor.commit({ op: 'image add', garage: item.name, ...pictureAt(item.image) }, what);
    // Emoji: the engine draws each into a picture kept with the creation, sized to a fifth of
    // the canvas's shorter side and centred where the next sticker goes.
    const addEmoji = (emoji) => {
      const { width, height } = editor.creation;
      const scale = Math.min(4, Math.max(0.05, (Math.min(width, height) * 0.2) / 260));
      const [x, y] = stickerAt();
      return editor.commit({ op: 'image add', emoji, scale: Math.round(scale * 1000) / 1000, at: [Math.round(x - 130 * scale), Math.round(y - 130 * scale)] },
        `added ${emoji}`);
    };
    const picker = document.getElementById('emoji-picker');
    for (const emoji of EMOJI) {
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = emoji;
      button.setAttribute('aria-label', `Add ${emoji}`);
      button.addEventListener('click', () => addEmoji(emoji));
      picker.append(button);
    }
    // The stickers that ship with Memery, as pictures to tap.
    api.stickers().then(({ stickers }) => {
      knowStickers(stickers.map(({ name }) => name));
      if (editor.creation) editor.panels.showLayers(editor.creation, editor.selected);  // drawn before the names came
      const shelf = document.getElementById('bundled-stickers');
      for (const { name } of stickers) {
        const button = document.createElement('button');
        button.type = 'button';
        button.setAttribute('aria-label', `Add the ${name.replaceAll('-', ' ')} sticker`);
        const picture = document.createElement('img');
        picture.src = api.stickerPictureURL(name);
        picture.alt = '';
        button.append(picture);
        button.addEventListener('click', () => {
          const { width, height } = editor.creation;
          // A third of the canvas's width, centred where the next sticker goes.
          const scale = Math.round(Math.min(4, Math.max(0.05, (width / 3) / 420)) * 1000) / 1000;
          const [x, y] = stickerAt();
          editor.commit({ op: 'image add', sticker: name, scale, at: [Math.round(x - 210 * scale), Math.round(y - 150 * scale)] },
            `added the ${name.replaceAll('-', ' ')} sticker`);
        });
        shelf.append(button);
      }
    }).catch(fail);
    document.getElementById('emoji-any').addEventListener('submit', (event) => {
      event.preventDefault();
      const field = document.getElementById('emoji-text');
      const emoji = field.value.trim();
      if (emoji) addEmoji(emoji).then((taken) => { if (taken) field.value = ''; });  // a refused one stays, to be mended
    });
    document.getElementById('add-sticker').addEventListener('change', (event) => {
      const item = this.garage.find((i) => i.name === event.target.value);
      if (item) addPicture(item, 'added a sticker');
      event.target.value = '';
    });
    document.getElementById('choose-sticker').addEventListener('click', () => document.getElementById('sticker-upload').click());
    document.getElementById('sticker-upload').addEventListener('change', async (event) => {
      const file = event.target.files[0];
      if (!file) return;
      try {
        await addPicture(await api.addToGarage(file), 'added a photo');
        this.refreshStickers();
      } catch (error) { fail(error); }
    });
    linkForm(document.getElementById('sticker-link-form'), async (item) => {
      await addPicture(item, 'added a picture from a link');
      this.refreshStickers();
    });
    on('rotate-left', () => editor.commit({ op: 'rotate', degrees: -90 }, 'rotated left'));
    on('rotate-right', () => editor.commit({ op: 'rotate', degrees: 90 }, 'rotated right'));
    on('flip-h', () => editor.commit({ op: 'flip', axis: 'h' }, 'flipped'));
    on('flip-v', () => editor.commit({ op: 'flip', axis: 'v' }, 'flipped'));
    document.addEventListener('keydown', (event) => this.key(event));
  }

  use(tool) {
    this.editor.tool = tool;
    for (const button of this.buttons) button.setAttribute('aria-pressed', String(button.dataset.tool === tool));
    this.editor.stageElement().dataset.mode = tool;  // not data-tool: that names the buttons
  }

  // The garage's pictures, kept with their sizes: a sticker chosen from it is sized by them.
  async refreshStickers() {
    try {
      this.garage = (await api.garage()).images;
      fillSelect(document.getElementById('add-sticker'), this.garage.map((i) => i.name));
    } catch (error) { fail(error); }
  }

  // Undo and Redo greyed where they would do nothing (still reached by Tab, and a press
  // says why), as the creation's answer says.
  showMoves(creation) {
    for (const [op, can] of [['undo', creation.canUndo], ['redo', creation.canRedo]]) {
      const button = document.getElementById(op);
      if (can === false) button.setAttribute('aria-disabled', 'true'); else button.removeAttribute('aria-disabled');
    }
  }

  // With an edit still on its way, the greying may be of the state before it: the engine decides.
  move(op) {
    if (!this.editor.inFlight && document.getElementById(op).getAttribute('aria-disabled') === 'true') {
      say(op === 'undo' ? 'nothing to undo: this is the creation as it was first made'
        : 'nothing to redo: no edit was undone from here (History shows every branch)');
      return;
    }
    this.editor.commit({ op }, op === 'undo' ? undone : redone);
  }

  key(event) {
    if (document.getElementById('editor-view').hidden) return;
    const typing = event.target.closest('input, textarea, select, [contenteditable]');
    if (typing) return;
    if (!(event.ctrlKey || event.metaKey)) { this.editor.stage.key(event); return; }
    const key = event.key.toLowerCase();
    if (key === 'z' && !event.shiftKey) { event.preventDefault(); this.move('undo'); }
    if ((key === 'z' && event.shiftKey) || key === 'y') { event.preventDefault(); this.move('redo'); }
  }
}
