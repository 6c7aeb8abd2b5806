// The side panels: the style of the selected text, the layers (reorder, remove), and the
// filters with a control for each parameter and a preview before applying.
import { api } from './api.js';
import { fillSelect } from './gallery.js';
import { fail, forgetFailure } from './status.js';
import { colourName } from './colourname.js';
import { spoken, stickerName } from './layername.js';
import { outsideQuotes, steps } from './summary.js';
import { tapOrClick } from './pointer.js';
import { moved, settingOf, spread, spreadsBy } from './spread.js';

// The style panel's controls as a message names them ("fill of “HELLO”: red").
const STYLE_WORDS = { font: 'font', size: 'size', color: 'fill', outline: 'outline', 'outline-width': 'outline width',
  align: 'alignment', caps: 'capitals', opacity: 'opacity' };

export class Panels {
  constructor(editor) {
    this.editor = editor;
    this.style = document.getElementById('style-panel');
    this.layers = document.getElementById('layers');
    this.filterChoice = document.getElementById('filter-choice');
    this.filterParams = document.getElementById('filter-params');
    this.filters = [];
    this.style.addEventListener('change', (event) => this.restyle(event.target));
    this.filterChoice.addEventListener('change', () => this.showFilter());
    document.getElementById('filter-apply').addEventListener('click', () => this.applyFilter());
    document.getElementById('filter-target').addEventListener('change', () => this.preview());
  }

  async load() {
    try {
      const [{ fonts }, { filters }] = await Promise.all([api.fonts(), api.filters()]);
      fillSelect(this.style.elements.font, fonts.map((f) => f.name), false);
      this.filters = filters;
      this.listFilters();
      document.getElementById('filters-all').addEventListener('change', () => this.listFilters());
    } catch (error) { fail(error); }
  }

  // Memery's own filters first, then those of plugins, each group by name; frei0r's hundred
  // (named by and for video people) only when asked for.
  listFilters() {
    const all = document.getElementById('filters-all').checked;
    const chosen = this.filterChoice.value;
    const origins = [['builtin', 'Memery'], ['user', 'Plugins'], ...(all ? [['frei0r', 'Made for video']] : [])];
    const groups = origins.map(([origin, title]) => {
      const group = document.createElement('optgroup');
      group.label = title;
      group.append(...this.filters.filter((f) => f.origin === origin).sort((a, b) => a.name.localeCompare(b.name))
        .map((f) => new Option(f.origin === 'frei0r' ? `${f.name} (${f.id.replace(/^frei0r\./, '')})` : f.name, f.id)));
      return group;
    }).filter((group) => group.children.length);
    this.filterChoice.replaceChildren(new Option('—', ''), ...groups);
    if ([...this.filterChoice.options].some((o) => o.value === chosen)) this.filterChoice.value = chosen;
  }

  // MARK: style

  showStyle(layer) {
    const form = this.style.elements;
    const text = layer?.kind === 'text' ? layer.style : null;
    const shape = layer?.kind === 'shape' ? layer.shape : null;
    // A shape has a fill, an outline and its width; text has all of it; others only opacity.
    const forShapes = ['color', 'outline', 'outline-width', 'opacity'];
    for (const control of this.style.querySelectorAll('input, select')) {
      control.disabled = !layer || (!text && !(shape && forShapes.includes(control.name)) && control.name !== 'opacity');
    }
    const hint = document.getElementById('style-hint');
    hint.hidden = Boolean(layer) && !text;
    const verb = tapOrClick();
    hint.textContent = text ? `To change its words, ${verb} the text on the picture again.`
      : `${verb[0].toUpperCase()}${verb.slice(1)} a text on the picture, or a layer below, to style it.`;
    if (!layer) return;
    form.opacity.value = layer.opacity;
    if (!text) {  // no text's values left showing, greyed, for a shape or a picture
      form.size.value = '';
      form.caps.checked = false;
    }
    if (shape) {
      form.color.value = (shape.fill || '#ffffff').slice(0, 7);
      form.outline.value = (shape.stroke || '#000000').slice(0, 7);
      form['outline-width'].value = shape.strokeWidth;
      return;
    }
    if (!text) return;
    form.font.value = text.font;
    form.size.value = Math.round(text.maxSize);
    form.color.value = text.fill.slice(0, 7);
    form.outline.value = text.outline.slice(0, 7);
    form['outline-width'].value = text.outlineWidth ?? '';
    form.align.value = text.align;
    form.caps.checked = text.uppercase;
  }

  restyle(control) {
    const layer = this.editor.selectedLayer();
    if (!layer || !control.name) return;
    const value = control.type === 'checkbox' ? String(control.checked) : control.value;
    if (value === '') return;
    const shapeKeys = { color: 'fill', outline: 'stroke', 'outline-width': 'stroke-width' };
    const key = layer.kind === 'shape' ? shapeKeys[control.name] || control.name : control.name;
    const shown = control.type === 'checkbox' ? (control.checked ? 'on' : 'off') : control.type === 'color' ? colourName(value) : value;
    const what = `${STYLE_WORDS[control.name] || control.name} of ${spoken(layer)}: ${shown}`;
    const commit = () => this.editor.commit({ op: 'layer set', id: layer.id, set: [`${key}=${value}`] }, what);
    // A slider stepped by the keyboard changes at every step: one edit once it rests.
    clearTimeout(this.resting);
    if (control.type === 'range') this.resting = setTimeout(commit, 800); else commit();
  }

  // MARK: layers

  // The engine's summaries ("filtered base with org.memery.sepia (F2)", "changed L4:
  // placement", "added top text L1 …") in the page's words: filters by the names the filter
  // panel gives them, layers by their words or kind (spoken), no labels, which only the CLI needs.
  // `gone(label)`: how the history's own words name a layer or filter the creation no longer
  // has (one added after the point gone back to), or undefined. `current`: the words are of
  // an edit on the way to the creation as it is now; labels are counted along each branch,
  // so another branch's L1 is not the L1 the creation has now.
  named(text, gone = () => undefined, current = true) {
    // A filter by its name: the one applied now under that label, or as the history added it.
    const filterNamed = (label) => {
      const applied = current ? this.editor.creation?.filters.find((f) => f.label === label) : null;
      const known = applied && this.filters.find((k) => k.id === applied.filter);
      return known?.name || applied?.filter || gone(label) || 'a filter';
    };
    const longestFirst = [...this.filters].sort((a, b) => b.id.length - a.id.length);  // frei0r.blur2 before frei0r.blur
    const layers = (current && this.editor.creation?.layers) || [];
    // Each event's words on their own: one edit may hold several ("created …; blank …").
    return steps(longestFirst.reduce((words, f) => words.split(f.id).join(f.name), text)).map((step) => outsideQuotes(step
      .replace(/ \(F\d+\)/g, '')
      .replace(/^filtered base with /, 'filtered the picture with ')
      .replace(/^changed (F\d+)'s parameters/, (_, label) => `changed the settings of ${filterNamed(label)}`)
      .replace(/^removed filter F\d+/, 'removed a filter')
      .replace(/^(added (?:top |bottom |free )?text|added image|added \w+|drew on a new drawing layer) L\d+\b/, '$1')
      .replace(/^added (top|bottom) text\b/, 'added the $1 caption')
      .replace(/^added (?:free )?text\b/, 'added a text box')
      .replace(/^added image emoji /, 'added a sticker ')
      .replace(/^added image (\S+) \(\d+x\d+\)$/, (whole, source) => (stickerName({ image: { sourceName: source } }) ? `added the ${stickerName({ image: { sourceName: source } })} sticker` : whole))
      .replace(/^added image\b/, 'added a picture')
      .replace(/^added rect\b/, 'added a rectangle')
      .replace(/^added (ellipse|line|shape)\b/, (_, kind) => `added ${kind === 'ellipse' ? 'an' : 'a'} ${kind}`)
      .replace(/^drew on a new drawing layer\b/, 'started a drawing')
      // A layer's transform holds where it is, its size and its turn: the words cannot say
      // which changed (the event keeps only the new transform).
      .replace(/^changed (L\d+): placement$/, 'moved or resized $1')
      .replace(/: placement\b/, ': place or size')
      // Outside people's own quoted words (a caption "#facade" or "L4" is theirs):
      , (part) => part
        .replace(/#[0-9a-f]{6}(?:[0-9a-f]{2})?\b/gi, (hex) => colourName(hex))
        // A caption by its place: its words now are not the words of an older edit of it.
        .replace(/\bL\d+\b/g, (label) => {
          const layer = layers.find((l) => l.label === label);
          if (!layer && gone(label)) return gone(label);
          return layer?.role === 'top' || layer?.role === 'bottom' ? `the ${layer.role} caption` : spoken(layer);
        }))).join('; ');
  }

  showLayers(creation, selected) {
    // Drawn anew (after an edit, a removal): a settings preview still to come is of what was.
    if (!this.previewing()) clearTimeout(this.pending);
    // The list is drawn anew: the keyboard's place in it is kept (the same button of the same layer).
    const focused = document.activeElement?.closest?.('#layers li') ? document.activeElement : null;
    const place = focused && { layer: focused.closest('li').dataset.layer, index: [...focused.closest('li').children].indexOf(focused) };
    this.layers.replaceChildren(...creation.layers.slice().reverse().map((layer) => {
      const item = document.createElement('li');
      item.dataset.layer = layer.id;
      if (layer.id === selected) item.className = 'selected';
      const name = document.createElement('button');
      name.type = 'button';
      name.append(Object.assign(document.createElement('span'), { textContent: describe(layer) }));  // (cut with an ellipsis)
      name.addEventListener('click', () => this.editor.select(layer.id));
      const up = button('↑', `Raise ${spoken(layer)}`, () => this.editor.commit({ op: 'layer move', id: layer.id, move: 'up' }, `raised ${spoken(layer)}`));
      const down = button('↓', `Lower ${spoken(layer)}`, () => this.editor.commit({ op: 'layer move', id: layer.id, move: 'down' }, `lowered ${spoken(layer)}`));
      const remove = button('✕', `Remove ${spoken(layer)}`, () => this.editor.commit({ op: 'layer remove', id: layer.id }, `removed ${spoken(layer)}`));
      item.append(name, up, down, remove);
      return item;
    }));
    if (place) [...this.layers.children].find((item) => item.dataset.layer === place.layer)?.children[place.index]?.focus();
    const applied = document.getElementById('applied-filters');
    applied.replaceChildren(...creation.filters.map((f) => {
      const item = document.createElement('li');
      const known = this.filters.find((k) => k.id === f.filter);
      const name = known?.name || f.filter;
      // In the words people see: the list's order is the filters' (1 first), no engine label.
      const on = f.target === 'base' ? 'the picture' : f.target === 'canvas' ? 'everything'
        : spoken(creation.layers.find((l) => `layer ${l.label}` === f.target));
      const title = document.createElement('span');
      title.textContent = `${name} on ${on}`;
      item.append(title);
      if (known?.params?.length) {
        item.append(button('Settings', `Change the settings of ${name} (filter ${f.position})`, () => {
          this.openSettings = this.openSettings === f.id ? null : f.id;
          this.showLayers(this.editor.creation, this.editor.selected);
          // Opened at the list's foot, below a phone's sheet: brought to where the person looks.
          applied.querySelector('.filter-settings')?.scrollIntoView({ block: 'nearest' });
        }));
      }
      item.append(button('✕', `Remove ${name} (filter ${f.position})`, () => this.editor.commit({ op: 'filter remove', position: f.position }, `removed ${name}`)));
      if (known && this.openSettings === f.id) item.append(this.appliedSettings(f, known, name));
      return item;
    }));
  }

  // An applied filter's settings, as they are now; each change is one edit (`filter set`).
  appliedSettings(f, known, name) {
    const box = document.createElement('div');
    box.className = 'filter-settings';
    for (const param of known.params) {
      const current = f.params?.[param.id] ?? param.default;
      let label;
      const setting = () => settingOf(label.querySelector('[data-param]'));
      const onChange = async () => {
        clearTimeout(this.pending);  // a preview still to come would cover what was stored
        const value = setting();
        const said = label.querySelector('[data-param]').type === 'color' ? colourName(value) : value;
        await this.editor.commit({ op: 'filter set', position: f.position, params: [`${param.id}=${value}`] }, `${name}: ${param.name.toLowerCase()} ${said}`);
        // A filter chosen and not applied is previewed again, on the picture as it now is.
        if (this.previewing()) this.preview(); else this.note(null);
      };
      // Dragged: the picture as the setting would leave it at each pause, stored when let go.
      const onInput = () => {
        clearTimeout(this.pending);
        this.pending = setTimeout(() => {
          forgetFailure();
          this.note(`${name}: a preview of this setting, stored when you let go`);
          this.editor.showPictureURL(api.settingsPreviewURL(this.editor.name, f.position,
            { width: this.editor.previewWidth(), settings: [`${param.id}=${setting()}`], version: this.editor.creation.events }));
        }, 150);
      };
      label = control(param, onChange, onInput, String(current));
      box.append(label);
    }
    return box;
  }

  // MARK: filters

  showFilter() {
    const filter = this.filters.find((f) => f.id === this.filterChoice.value);
    for (const thumb of document.querySelectorAll('#filter-strip .filter-thumb')) {
      thumb.setAttribute('aria-pressed', String(thumb.dataset.filter === this.filterChoice.value));
    }
    // A slider previews as it is dragged (each pause of 150 ms), not only once it is let go.
    this.filterParams.replaceChildren(...(filter?.params || []).map((param) => control(param, () => this.preview(), () => this.preview())));
    this.preview();
  }

  settings() {
    return [...this.filterParams.querySelectorAll('[data-param]')].map((input) => `${input.dataset.param}=${settingOf(input)}`);
  }

  target() {
    const target = document.getElementById('filter-target').value;
    const layer = this.editor.selectedLayer();
    if (target === 'layer') return layer ? { layer: layer.id } : null;
    return target === 'canvas' ? { canvas: true } : {};
  }

  previewing() { return Boolean(this.filterChoice.value); }

  // A strip of small previews of Memery's own filters and the plugins' on this picture, as
  // it is now (frei0r's hundred are in the list below it). A tap previews one.
  showStrip() {
    const strip = document.getElementById('filter-strip');
    const creation = this.editor.creation;
    if (!creation) return;
    const shown = this.filters.filter((f) => f.origin !== 'frei0r').sort((a, b) => a.name.localeCompare(b.name));
    const key = `${this.editor.name}@${creation.events}`;
    if (strip.dataset.key === key && strip.children.length === shown.length) return;
    strip.dataset.key = key;
    const side = 72 * Math.min(2, window.devicePixelRatio || 1);
    strip.replaceChildren(...shown.map((filter) => {
      const choose = document.createElement('button');
      choose.type = 'button';
      choose.className = 'filter-thumb';
      choose.dataset.filter = filter.id;
      choose.setAttribute('aria-label', `Preview ${filter.name}`);
      const picture = document.createElement('img');
      picture.alt = '';
      picture.loading = 'lazy';
      picture.src = api.previewURL(this.editor.name, filter.id, { width: side, version: creation.events });
      const name = document.createElement('span');
      name.textContent = filter.name;
      choose.append(picture, name);
      choose.addEventListener('click', () => {
        this.filterChoice.value = filter.id;
        this.showFilter();
      });
      return choose;
    }));
  }

  // The filter chosen but not applied is let go: the picture is again what is applied.
  dropPreview() {
    const id = this.filterChoice.value;
    clearTimeout(this.pending);
    this.filterChoice.value = '';
    this.filterParams.replaceChildren();
    this.note(null);
    this.editor.showPicture();
    return this.filters.find((f) => f.id === id)?.name || id;
  }

  // Said above the picture while it shows a preview, wherever the person goes in the page.
  note(text) {
    const note = document.getElementById('preview-note');
    note.textContent = text || '';
    note.title = text || '';  // cut to two lines on a phone: the whole on a long press
    note.hidden = !text;
  }

  // The engine's picture with the filter as set, stored nowhere.
  preview() {
    clearTimeout(this.pending);
    const id = this.filterChoice.value;
    if (!id) { this.note(null); this.editor.showPicture(); return; }
    this.pending = setTimeout(() => {
      const target = this.target() || {};
      this.editor.showPictureURL(api.previewURL(this.editor.name, id,
        { width: this.editor.previewWidth(), settings: this.settings(), layer: target.layer, canvas: target.canvas }));
      const name = this.filters.find((f) => f.id === id)?.name || id;
      forgetFailure();
      this.note(`${name}: a preview, not applied (nor downloaded) until you press Apply`);
    }, 150);
  }

  async applyFilter() {
    const id = this.filterChoice.value;
    const target = this.target();
    if (!id) return fail(new Error('choose a filter first'));
    if (!target) return fail(new Error('select a layer to filter it, or apply to the picture'));
    const name = this.filters.find((f) => f.id === id)?.name || id;
    clearTimeout(this.pending);  // a preview still to come would cover what was applied
    this.note(null);
    await this.editor.commit({ op: 'filter apply', filter: id, params: this.settings(), ...target }, `applied ${name}`);
    this.filterChoice.value = '';
    this.filterParams.replaceChildren();
  }
}

function button(text, label, handler) {
  const element = document.createElement('button');
  element.type = 'button';
  element.textContent = text;
  element.setAttribute('aria-label', label);
  element.addEventListener('click', handler);
  return element;
}

// A control for a filter parameter: a slider for a range, a colour picker, a checkbox, a
// choice, showing `value` (the filter's default unless given). `onInput`, when given, hears
// each step of a slider or picker being dragged.
function control(param, onChange, onInput, value = param.default) {
  const label = document.createElement('label');
  label.textContent = `${param.name} `;
  let input;
  if (param.type === 'choice') {
    input = document.createElement('select');
    input.append(...param.choices.map((choice) => new Option(choice, choice)));
    input.value = value;
  } else if (param.type === 'bool' || param.type === 'boolean') {
    input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = value === 'true';
  } else if (param.type === 'color' || param.type === 'colour') {
    input = document.createElement('input');
    input.type = 'color';
    input.value = value.slice(0, 7);
  } else if (param.type === 'integer' && Number(param.max) - Number(param.min) > 1000) {
    // A seed, a count in the millions: a slider could not land on each value, a field can.
    input = document.createElement('input');
    input.type = 'number';
    input.min = param.min;
    input.max = param.max;
    input.step = 1;
    input.value = value;
  } else if (param.type === 'number' || param.type === 'integer') {
    input = document.createElement('input');
    input.type = 'range';
    if (spreadsBy(param)) {
      spread(input, param, value);  // a blur's 0-500: small values get the travel
    } else {
      input.min = param.min;
      input.max = param.max;
      // An integer steps by 1; a number by round steps a person can hit (0.01 on 0 to 1), and
      // never by more than its default can be reached with (the value shown is the value sent).
      const span = Number(param.max) - Number(param.min);
      const step = span > 0 ? 10 ** (Math.floor(Math.log10(span)) - 2) : 0.01;
      input.step = param.type === 'integer' ? 1 : step;
      input.value = value;
      if (input.value !== String(value)) input.step = 'any';
    }
    const shown = document.createElement('output');
    shown.textContent = value;
    input.addEventListener('input', () => { shown.textContent = moved(input); });
    label.append(input, shown);
  } else {
    input = document.createElement('input');
    input.value = value;
  }
  input.dataset.param = param.id;
  input.addEventListener('change', onChange);
  if (onInput && (input.type === 'range' || input.type === 'color')) input.addEventListener('input', onInput);
  if (!input.parentNode) label.append(input);
  return label;
}

// What a layer is, in the words of the layers panel: "rectangle", "text: Your text", "sticker".
function describe(layer) {
  if (layer.kind === 'text') return `text: ${layer.text}`;
  if (layer.kind === 'shape') return layer.shape?.kind === 'rect' ? 'rectangle' : layer.shape?.kind || 'shape';
  if (layer.kind === 'image' && stickerName(layer)) return `sticker: ${stickerName(layer)}`;
  if (layer.kind === 'image' && layer.image?.sourceName?.startsWith('emoji ')) return `sticker: ${layer.image.sourceName.slice(6)}`;
  if (layer.kind === 'image') return `picture${layer.image?.sourceName ? `: ${layer.image.sourceName}` : ''}`;
  return layer.kind;
}
