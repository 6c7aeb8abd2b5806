// The side panels: the style of the selected text, the layers (reorder, remove), and the
// filters with a control for each parameter and a preview before applying.
import { api } from './api.js';
import { fillSelect } from './gallery.js';
import { fail } from './status.js';

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
      this.filterChoice.replaceChildren(new Option('—', ''), ...filters.map((f) => new Option(f.name, f.id)));
    } catch (error) { fail(error); }
  }

  // MARK: style

  showStyle(layer) {
    const form = this.style.elements;
    const text = layer?.kind === 'text' ? layer.style : null;
    for (const control of this.style.querySelectorAll('input, select')) control.disabled = !layer || (!text && control.name !== 'opacity');
    document.getElementById('style-hint').hidden = Boolean(layer);
    if (!layer) return;
    form.opacity.value = layer.opacity;
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
    const key = control.name === 'caps' ? 'caps' : control.name;
    this.editor.commit({ op: 'layer set', id: layer.id, set: [`${key}=${value}`] }, `${layer.label}: ${key} ${value}`);
  }

  // MARK: layers

  showLayers(creation, selected) {
    this.layers.replaceChildren(...creation.layers.slice().reverse().map((layer) => {
      const item = document.createElement('li');
      if (layer.id === selected) item.className = 'selected';
      const name = document.createElement('button');
      name.type = 'button';
      name.textContent = `${layer.label} ${layer.kind}${layer.text ? `: ${layer.text}` : ''}`;
      name.addEventListener('click', () => this.editor.select(layer.id));
      const up = button('↑', `Raise ${layer.label}`, () => this.editor.commit({ op: 'layer move', id: layer.id, move: 'up' }, `raised ${layer.label}`));
      const down = button('↓', `Lower ${layer.label}`, () => this.editor.commit({ op: 'layer move', id: layer.id, move: 'down' }, `lowered ${layer.label}`));
      const remove = button('✕', `Remove ${layer.label}`, () => this.editor.commit({ op: 'layer remove', id: layer.id }, `removed ${layer.label}`));
      item.append(name, up, down, remove);
      return item;
    }));
    const applied = document.getElementById('applied-filters');
    applied.replaceChildren(...creation.filters.map((f) => {
      const item = document.createElement('li');
      item.textContent = `${f.label} ${f.filter} on ${f.target} `;
      item.append(button('✕', `Remove filter ${f.position}`, () => this.editor.commit({ op: 'filter remove', position: f.position }, `removed ${f.label}`)));
      return item;
    }));
  }

  // MARK: filters

  showFilter() {
    const filter = this.filters.find((f) => f.id === this.filterChoice.value);
    this.filterParams.replaceChildren(...(filter?.params || []).map((param) => control(param, () => this.preview())));
    this.preview();
  }

  settings() {
    return [...this.filterParams.querySelectorAll('[data-param]')].map((input) =>
      `${input.dataset.param}=${input.type === 'checkbox' ? input.checked : input.value}`);
  }

  target() {
    const target = document.getElementById('filter-target').value;
    const layer = this.editor.selectedLayer();
    if (target === 'layer') return layer ? { layer: layer.id } : null;
    return target === 'canvas' ? { canvas: true } : {};
  }

  // The engine's picture with the filter as set, stored nowhere.
  preview() {
    clearTimeout(this.pending);
    const id = this.filterChoice.value;
    if (!id) { this.editor.showPicture(); return; }
    this.pending = setTimeout(() => {
      const target = this.target() || {};
      const query = new URLSearchParams({ filter: id, width: String(this.editor.previewWidth()), format: 'png' });
      for (const setting of this.settings()) query.append('set', setting);
      if (target.layer) query.set('layer', target.layer);
      if (target.canvas) query.set('canvas', 'true');
      this.editor.showPictureURL(`/api/creations/${encodeURIComponent(this.editor.name)}/preview?${query}`);
    }, 150);
  }

  async applyFilter() {
    const id = this.filterChoice.value;
    const target = this.target();
    if (!id) return fail(new Error('choose a filter first'));
    if (!target) return fail(new Error('select a layer to filter it, or apply to the picture'));
    await this.editor.commit({ op: 'filter apply', filter: id, params: this.settings(), ...target }, `applied ${id}`);
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

// A control for a filter parameter: a slider for a range, a colour picker, a checkbox, a choice.
function control(param, onChange) {
  const label = document.createElement('label');
  label.textContent = `${param.name} `;
  let input;
  if (param.type === 'choice') {
    input = document.createElement('select');
    input.append(...param.choices.map((choice) => new Option(choice, choice)));
    input.value = param.default;
  } else if (param.type === 'bool' || param.type === 'boolean') {
    input = document.createElement('input');
    input.type = 'checkbox';
    input.checked = param.default === 'true';
  } else if (param.type === 'color' || param.type === 'colour') {
    input = document.createElement('input');
    input.type = 'color';
    input.value = param.default.slice(0, 7);
  } else if (param.type === 'number' || param.type === 'integer') {
    input = document.createElement('input');
    input.type = 'range';
    input.min = param.min;
    input.max = param.max;
    input.step = param.type === 'integer' ? 1 : (param.max - param.min) / 100 || 0.01;
    input.value = param.default;
    const shown = document.createElement('output');
    shown.textContent = param.default;
    input.addEventListener('input', () => { shown.textContent = input.value; });
    label.append(input, shown);
  } else {
    input = document.createElement('input');
    input.value = param.default;
  }
  input.dataset.param = param.id;
  input.addEventListener('change', onChange);
  if (!input.parentNode) label.append(input);
  return label;
}
