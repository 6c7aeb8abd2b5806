// The stage: the engine's render of the creation, and the gestures made on it. Screen
// points become canvas pixels here; each gesture commits one edit when it ends, so one
// gesture is one undo step. While a layer is dragged, only its outline moves on the page.

import { spoken } from './layername.js';

const SNAP = 8;  // screen pixels within which a moving layer snaps to the centre or an edge
const TAP = 6;   // screen pixels a finger may wander in a tap before it is a drag

export class Stage {
  constructor(editor) {
    this.editor = editor;
    this.stage = document.getElementById('stage');
    this.picture = document.getElementById('picture');
    this.ink = document.getElementById('ink');
    this.outline = document.getElementById('selection');
    this.cropBox = document.getElementById('crop-box');
    this.inlineText = document.getElementById('inline-text');
    this.gesture = null;
    this.zoom = 1;
    this.pan = { x: 0, y: 0 };
    this.shownPan = { x: 0, y: 0 };  // the pan the stage is drawn with now
    this.fingers = new Map();  // touch points down on the stage, by pointer id
    this.pinching = null;
    const area = this.stage.parentElement;
    area.addEventListener('wheel', (event) => this.wheel(event), { passive: false });
    // A tap on the space around the picture lets the chosen layer go, as one on the picture's
    // empty part does.
    area.addEventListener('click', (event) => { if (event.target === area && this.editor.selected) this.editor.select(null); });
    this.stage.addEventListener('pointerdown', (event) => this.down(event));
    this.stage.addEventListener('pointermove', (event) => this.move(event));
    this.stage.addEventListener('pointerup', (event) => this.up(event));
    this.stage.addEventListener('pointercancel', (event) => { this.fingers.delete(event.pointerId); this.pinching = null; this.cancel(); });
    this.stage.addEventListener('dblclick', (event) => this.editTextAt(event));  // a mouse's habit; a tap on the chosen text does the same
    this.picture.addEventListener('load', () => this.layout());
    this.fitButton = document.getElementById('zoom-fit');
    this.fitButton.addEventListener('click', () => this.resetZoom());
    // The area changes with the window, a sheet opened or closed, a message that wraps.
    new ResizeObserver(() => { this.fit(); this.layout(); }).observe(this.stage.parentElement);
    this.inlineText.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.shiftKey) { event.preventDefault(); this.inlineText.blur(); }
      if (event.key === 'Escape') { this.inlineText.dataset.cancelled = '1'; this.inlineText.blur(); }
    });
    this.inlineText.addEventListener('blur', () => this.commitInlineText());
    // The tap that opened the words is followed by the browser's mouse events for it, on the
    // stage now that the field is beside the words: they must not take its focus (and close it).
    this.stage.addEventListener('mousedown', (event) => {
      if (!this.inlineText.hidden && event.target !== this.inlineText && performance.now() - this.wordsOpenedAt < 800) event.preventDefault();
    });
    // The picture drawn again with the words at each pause, in the box's own font and colours.
    this.inlineText.addEventListener('input', () => this.previewOpenWords());
  }

  // Canvas pixels per screen pixel.
  get ratio() { return this.editor.creation ? this.editor.creation.width / (this.picture.clientWidth || 1) : 1; }

  // Canvas pixels per pixel of the screen: the same at fit zoom, smaller when zoomed in.
  get screenRatio() {
    const width = this.picture.getBoundingClientRect().width;
    return this.editor.creation && width ? this.editor.creation.width / width : this.ratio;
  }

  toCanvas(event) {
    const rect = this.picture.getBoundingClientRect();
    const r = this.screenRatio;
    return { x: (event.clientX - rect.left) * r, y: (event.clientY - rect.top) * r };
  }

  // MARK: zoom. Fit (the whole picture) is zoom 1; the stage is scaled and moved inside its
  // area, which clips it. The wheel and + and − zoom on a desktop, two fingers pinch and pan.
  applyZoom() {
    // The picture never leaves its area: its middle stays within the scaled picture's half.
    const w = this.stage.offsetWidth, h = this.stage.offsetHeight;
    const limit = (size) => Math.max(0, ((this.zoom - 1) * size) / 2);
    this.pan = { x: clamp(this.pan.x, -limit(w), limit(w)), y: clamp(this.pan.y, -limit(h), limit(h)) };
    this.shownPan = { ...this.pan };
    this.fitButton.hidden = this.zoom === 1;
    this.stage.style.transform = this.zoom === 1 && !this.pan.x && !this.pan.y ? '' : `translate(${this.pan.x}px, ${this.pan.y}px) scale(${this.zoom})`;
    this.stage.dataset.zoom = String(Math.round(this.zoom * 100) / 100);
    this.stage.parentElement.classList.toggle('zoomed', this.zoom !== 1);
    // Once the zoom rests, the picture is drawn again at the size it shows at; the
    // scaled-up one stands in meanwhile.
    clearTimeout(this.sharpen);
    this.sharpen = setTimeout(() => {
      const ed = this.editor;
      if (ed.creation && !ed.showingPast && !ed.panels.previewing()) ed.showPicture();
    }, 250);
  }

  resetZoom() {
    this.zoom = 1;
    this.pan = { x: 0, y: 0 };
    this.applyZoom();
  }

  // Zooms by `factor` keeping the screen point (x, y) where it is.
  zoomBy(factor, x, y) {
    const next = Math.min(8, Math.max(1, this.zoom * factor));
    const area = this.stage.parentElement.getBoundingClientRect();
    const cx = x ?? area.left + area.width / 2, cy = y ?? area.top + area.height / 2;
    // The stage's centre on screen at this.pan (the origin of its scale). From the drawn
    // one, less the pan it is drawn with: a pinch sets this.pan back to where it began
    // without drawing it, and a centre read as drawn made each step's error the next one's
    // start (past 3x the picture flew off the screen).
    const rect = this.stage.getBoundingClientRect();
    const ox = rect.left + rect.width / 2 - this.shownPan.x + this.pan.x, oy = rect.top + rect.height / 2 - this.shownPan.y + this.pan.y;
    const k = next / this.zoom;
    this.pan = next === 1 ? { x: 0, y: 0 } : { x: this.pan.x + (cx - ox) * (1 - k), y: this.pan.y + (cy - oy) * (1 - k) };
    this.zoom = next;
    this.applyZoom();
  }

  wheel(event) {
    if (!this.editor.creation) return;
    event.preventDefault();
    this.zoomBy(Math.exp(-event.deltaY / 400), event.clientX, event.clientY);
  }

  // Two fingers down: on the chosen layer, they resize and turn it (one edit, when they
  // lift), as a phone's meme apps do; elsewhere a pinch zooms about their midpoint and pans.
  pinch() {
    const points = [...this.fingers.values()];
    const mid = { x: (points[0].x + points[1].x) / 2, y: (points[0].y + points[1].y) / 2 };
    const distance = Math.hypot(points[0].x - points[1].x, points[0].y - points[1].y) || 1;
    const angle = Math.atan2(points[1].y - points[0].y, points[1].x - points[0].x);
    if (!this.pinching) {
      const layer = this.editor.selectedLayer();
      const drawing = ['brush', 'eraser', 'crop'].includes(this.editor.tool);
      const onLayer = layer && !drawing && !this.editor.showingPast && covers(layer, this.toCanvas({ clientX: mid.x, clientY: mid.y }));
      this.pinching = { distance, mid, angle, zoom: this.zoom, pan: { ...this.pan }, layer: onLayer ? layer : null, preview: null };
      return;
    }
    const p = this.pinching;
    if (p.layer) {
      const t = p.layer.transform;
      const turned = ((((angle - p.angle) * 180) / Math.PI + 540) % 360) - 180;  // across ±180°, the short way
      p.preview = { scale: Math.max(0.01, (t.scale * distance) / p.distance), rotation: t.rotation + turned };
      this.showSelection(p.preview);
      return;
    }
    this.zoom = p.zoom;
    this.pan = { ...p.pan };
    this.zoomBy(distance / p.distance, p.mid.x, p.mid.y);
    if (this.zoom > 1) {
      this.pan.x += mid.x - p.mid.x;
      this.pan.y += mid.y - p.mid.y;
      this.applyZoom();
    }
  }

  // The picture fitted whole into the stage's area (what the bars and the open sheet leave),
  // whatever the window and whichever sheet is open: it never leaves the view.
  fit() {
    const creation = this.editor.creation;
    if (!creation) return;
    const area = this.stage.parentElement;
    const style = getComputedStyle(area);
    const width = area.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
    const height = area.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    const fitted = Math.max(40, Math.min(width, (height * creation.width) / creation.height));
    this.stage.style.width = `${Math.floor(fitted)}px`;
  }

  layout() {
    this.ink.width = this.picture.clientWidth;
    this.ink.height = this.picture.clientHeight;
    this.showSelection();
  }

  // The selected layer's outline, from its transform: centre, size, rotation.
  showSelection(preview) {
    const layer = this.editor.selectedLayer();
    if (!layer || this.editor.showingPast) { this.outline.hidden = true; return; }
    const t = { ...layer.transform, ...(preview || {}) };
    const scaleBy = t.scale / layer.transform.scale;
    const r = this.ratio;
    this.outline.hidden = false;
    Object.assign(this.outline.style, {
      left: `${t.x / r}px`, top: `${t.y / r}px`,
      width: `${(layer.box.w * scaleBy) / r}px`, height: `${(layer.box.h * scaleBy) / r}px`,
      transform: `translate(-50%, -50%) rotate(${t.rotation}deg)`,
    });
  }

  async down(event) {
    if (event.pointerType === 'touch') {
      this.fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (this.fingers.size >= 2) {
        // A second finger: whatever the first began is let go, and the two pinch.
        this.cancel();
        this.stage.setPointerCapture(event.pointerId);
        this.pinch();
        return;
      }
    }
    if (event.button !== 0 || !this.editor.creation || event.target === this.inlineText) return;
    const tool = this.editor.tool;
    const point = this.toCanvas(event);
    this.stage.setPointerCapture(event.pointerId);
    if (tool === 'brush' || tool === 'eraser') {
      this.gesture = { kind: 'draw', points: [point], erase: tool === 'eraser' };
      this.paint();
      return;
    }
    if (tool === 'crop') {
      this.gesture = { kind: 'crop', from: point, to: point };
      return;
    }
    const handle = event.target.dataset?.handle;
    const layer = this.editor.selectedLayer();
    if (handle && layer) {
      this.gesture = { kind: handle, layer, start: point, centre: { x: layer.transform.x, y: layer.transform.y } };
      return;
    }
    // A text tapped again where it is drawn, when it is the chosen layer, opens its words
    // once released without a drag: decided here, at once, so that a quick tap (released
    // before any answer) opens them, and in the tap itself, which lets a phone show its keyboard.
    const chosen = layer;
    // With a box's words open, a press on the picture only leaves them (the field's blur
    // sends them): it must not open them again from the words before.
    if (!this.inlineText.hidden) { this.gesture = null; return; }
    if (chosen?.kind === 'text' && covers(chosen, point)) {
      this.gesture = { kind: 'move', layer: chosen, start: point, preview: null, again: true };
      return;
    }
    // Otherwise the engine's hit test decides what was clicked.
    const pending = { kind: 'pending' };
    this.gesture = pending;
    const hit = await this.editor.hit(point);
    if (this.pinching) return;  // a second finger came meanwhile: the two decide
    if (this.gesture !== pending && this.gesture !== null) return;  // another gesture has begun
    this.editor.select(hit?.id || null);  // a click selects, even one released before the answer
    if (this.gesture === pending) this.gesture = hit ? { kind: 'move', layer: hit, start: point, preview: null } : null;
  }

  move(event) {
    if (this.fingers.has(event.pointerId)) {
      this.fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (this.fingers.size >= 2) { this.pinch(); return; }
    }
    const g = this.gesture;
    if (!g) return;
    const point = this.toCanvas(event);
    if (g.kind === 'draw') {
      g.points.push(point);
      this.paint();
    } else if (g.kind === 'crop') {
      g.to = point;
      const r = this.ratio;
      const box = this.cropRect(g);
      this.cropBox.hidden = false;
      Object.assign(this.cropBox.style, { left: `${box.x / r}px`, top: `${box.y / r}px`, width: `${box.w / r}px`, height: `${box.h / r}px` });
    } else if (g.kind === 'move') {
      // A finger's wobble in a tap is not a move (nor an edit).
      if (!g.preview && Math.hypot(point.x - g.start.x, point.y - g.start.y) < TAP * this.screenRatio) return;
      g.preview = this.snapped({ x: g.layer.transform.x + point.x - g.start.x, y: g.layer.transform.y + point.y - g.start.y }, g.layer);
      this.showSelection(g.preview);
    } else if (g.kind === 'resize') {
      const before = Math.hypot(g.start.x - g.centre.x, g.start.y - g.centre.y) || 1;
      const now = Math.hypot(point.x - g.centre.x, point.y - g.centre.y);
      g.preview = { scale: Math.max(0.01, g.layer.transform.scale * (now / before)) };
      this.showSelection(g.preview);
    } else if (g.kind === 'rotate') {
      const angle = (a, b) => (Math.atan2(b.y - a.y, b.x - a.x) * 180) / Math.PI;
      let rotation = g.layer.transform.rotation + angle(g.centre, point) - angle(g.centre, g.start);
      if (event.shiftKey) rotation = Math.round(rotation / 15) * 15;  // Shift snaps to 15°
      rotation = ((rotation % 360) + 540) % 360 - 180;
      g.preview = { rotation };
      this.showSelection(g.preview);
    }
  }

  // The keyboard's gestures on the selected layer: arrows move it a screen pixel (Shift: ten),
  // [ and ] turn it 15°, - and + scale it, Delete removes it, Escape lets it go. Keys pressed
  // in a row are one gesture: one edit, committed once they rest.
  key(event) {
    const layer = this.editor.selectedLayer();
    if (event.altKey || event.ctrlKey || event.metaKey) return false;
    if (!layer) {
      // Nothing selected: + and − zoom the picture, 0 fits it again.
      const zoom = { '+': 1.25, '=': 1.25, '-': 0.8, '0': 0 }[event.key];
      if (zoom === undefined || !this.editor.creation) return false;
      event.preventDefault();
      if (zoom === 0) this.resetZoom(); else this.zoomBy(zoom);
      return true;
    }
    const keyed = this.keyed?.layer.id === layer.id ? this.keyed.preview : {};
    const t = { ...layer.transform, ...keyed };
    const step = (event.shiftKey ? 10 : 1) * this.ratio;
    const turn = (degrees) => ({ rotation: ((((t.rotation + degrees) % 360) + 540) % 360) - 180 });
    const change = {
      ArrowLeft: { x: t.x - step }, ArrowRight: { x: t.x + step }, ArrowUp: { y: t.y - step }, ArrowDown: { y: t.y + step },
      '[': turn(-15), ']': turn(15), '-': { scale: Math.max(0.05, t.scale / 1.1) }, '+': { scale: t.scale * 1.1 }, '=': { scale: t.scale * 1.1 },
    }[event.key];
    if (event.key === 'Delete') {
      event.preventDefault();
      this.editor.commit({ op: 'layer remove', id: layer.id }, `removed ${spoken(layer)}`);
      return true;
    }
    if (event.key === 'Escape') { this.editor.select(null); return true; }
    if (!change) return false;
    event.preventDefault();
    this.keyed = { layer, preview: { ...keyed, ...change } };
    this.showSelection(this.keyed.preview);
    clearTimeout(this.keyTimer);
    this.keyTimer = setTimeout(() => {
      const { layer: moved, preview } = this.keyed;
      this.keyed = null;
      const set = Object.entries(preview).map(([key, value]) => `${key}=${round(value)}`);
      this.editor.commit({ op: 'layer set', id: moved.id, set }, `changed ${spoken(moved)} from the keyboard`)
        .then(() => this.editor.room.consider(moved.id));
    }, 800);
    return true;
  }

  // Snaps a layer's centre, or its edges, to the canvas centre and edges, and shows the guide.
  snapped(centre, layer) {
    const { width, height } = this.editor.creation;
    const near = SNAP * this.screenRatio;
    const snapAxis = (value, half, size) => {
      for (const target of [size / 2]) if (Math.abs(value - target) < near) return [target, target];
      if (Math.abs(value - half) < near) return [half, 0];
      if (Math.abs(value + half - size) < near) return [size - half, size];
      return [value, null];
    };
    const [x, guideX] = snapAxis(centre.x, layer.box.w / 2, width);
    const [y, guideY] = snapAxis(centre.y, layer.box.h / 2, height);
    this.guide('guide-v', guideX, 'left');
    this.guide('guide-h', guideY, 'top');
    return { x: Math.round(x * 10) / 10, y: Math.round(y * 10) / 10 };
  }

  guide(id, at, side) {
    const element = document.getElementById(id);
    element.hidden = at === null;
    if (at !== null) element.style[side] = `${at / this.ratio}px`;
  }

  async up(event) {
    this.fingers.delete(event.pointerId);
    if (this.pinching) {
      const p = this.pinching;
      if (this.fingers.size < 2) this.pinching = null;
      this.gesture = null;
      if (!this.pinching && p.layer && p.preview) {
        const set = Object.entries(p.preview).map(([key, value]) => `${key}=${round(value)}`);
        await this.editor.commit({ op: 'layer set', id: p.layer.id, set }, `resized ${spoken(p.layer)}`);
        this.editor.room.consider(p.layer.id);  // grown past an edge: offer to grow the canvas
      }
      return;
    }
    const g = this.gesture;
    this.gesture = null;
    this.guide('guide-v', null, 'left');
    this.guide('guide-h', null, 'top');
    if (!g) return;
    const ed = this.editor;
    if (g.kind === 'draw') {
      this.ink.getContext('2d').clearRect(0, 0, this.ink.width, this.ink.height);
      if (g.points.length === 1) g.points.push({ x: g.points[0].x + 0.5, y: g.points[0].y });
      const points = thin(g.points).map((p) => [round(p.x), round(p.y)]);
      await ed.commit({ op: 'draw', points, width: round(ed.brushWidth() * this.screenRatio), color: ed.brushColor(), erase: g.erase },
        g.erase ? 'erased' : 'drew a stroke');
    } else if (g.kind === 'crop') {
      this.cropBox.hidden = true;
      const box = this.cropRect(g);
      if (box.w >= 2 && box.h >= 2) {
        // One crop per press of Crop: the next drag selects again, it does not crop the crop.
        ed.tools.use('select');
        await ed.commit({ op: 'crop', box: [box.x, box.y, box.w, box.h].map(Math.round) }, 'cropped');
      }
    } else if (g.preview) {
      const set = Object.entries(g.preview).map(([key, value]) => `${key}=${round(value)}`);
      await ed.commit({ op: 'layer set', id: g.layer.id, set }, g.kind === 'move' ? `moved ${spoken(g.layer)}` : `${g.kind}d ${spoken(g.layer)}`);
      ed.room.consider(g.layer.id);  // past an edge: offer to grow the canvas to hold it
    } else if (g.kind === 'move' && g.again) {
      this.editText(g.layer.id);
    }
  }

  cancel() {
    this.gesture = null;
    this.cropBox.hidden = true;
    this.ink.getContext('2d').clearRect(0, 0, this.ink.width, this.ink.height);
    this.showSelection();
  }

  cropRect(g) {
    const { width, height } = this.editor.creation;
    const x0 = clamp(Math.min(g.from.x, g.to.x), 0, width), y0 = clamp(Math.min(g.from.y, g.to.y), 0, height);
    const x1 = clamp(Math.max(g.from.x, g.to.x), 0, width), y1 = clamp(Math.max(g.from.y, g.to.y), 0, height);
    return { x: x0, y: y0, w: x1 - x0, h: y1 - y0 };
  }

  // The stroke drawn locally while the pointer moves; the engine draws it for good on release.
  paint() {
    const g = this.gesture;
    const context = this.ink.getContext('2d');
    context.clearRect(0, 0, this.ink.width, this.ink.height);
    context.lineCap = context.lineJoin = 'round';
    context.lineWidth = this.editor.brushWidth();
    context.strokeStyle = g.erase ? 'rgba(255,255,255,0.8)' : this.editor.brushColor();
    context.beginPath();
    g.points.forEach((p, i) => (i ? context.lineTo(p.x / this.ratio, p.y / this.ratio) : context.moveTo(p.x / this.ratio, p.y / this.ratio)));
    context.stroke();
  }

  // Double-click a caption or text box to edit its words where they are.
  async editTextAt(event) {
    const hit = await this.editor.hit(this.toCanvas(event));
    if (hit?.kind === 'text') this.editText(hit.id);
  }

  // A text layer's words in a field over them; `chooseAll` for a new box, whose words are
  // there to be typed over.
  editText(id, { chooseAll = false } = {}) {
    const layer = this.editor.creation?.layers.find((l) => l.id === id);
    if (!layer || layer.kind !== 'text' || this.editor.showingPast) return;
    if (!this.inlineText.hidden && this.inlineText.dataset.layer === id) return;  // already open (a double-click's second half)
    if (this.editor.selected !== id) this.editor.select(id);
    const r = this.ratio;
    const t = layer.transform;
    // Below the words (above them when there is no room below, over them when there is
    // neither), so that the picture drawn again as they are typed shows how they will look;
    // never wider than the stage.
    const radians = (t.rotation * Math.PI) / 180;
    const reach = (Math.abs(layer.box.w * Math.sin(radians)) + Math.abs(layer.box.h * Math.cos(radians))) / 2 / r;
    const height = Math.min(Math.max(layer.box.h / r, 44), 96);
    const below = t.y / r + reach + 6 + height / 2, above = t.y / r - reach - 6 - height / 2;
    const top = below + height / 2 <= this.stage.clientHeight ? below : above - height / 2 >= 0 ? above : t.y / r;
    const width = Math.min(Math.max(layer.box.w / r, 160), this.stage.clientWidth);
    const left = Math.min(Math.max(t.x / r, width / 2), this.stage.clientWidth - width / 2);
    Object.assign(this.inlineText.style, {
      left: `${left}px`, top: `${top}px`, width: `${width}px`, height: `${height}px`,
      transform: `translate(-50%, -50%)${top === t.y / r ? ` rotate(${t.rotation}deg)` : ''}`,
    });
    this.inlineText.value = layer.text;
    this.inlineText.dataset.layer = id;
    this.inlineText.dataset.cancelled = '';
    this.inlineText.hidden = false;
    this.wordsOpenedAt = performance.now();
    this.inlineText.focus();
    if (chooseAll) this.inlineText.select();
    this.inlineText.scrollIntoView({ block: 'center' });  // above a phone's keyboard
  }

  // The picture with the open text box's words as typed (nothing when no box is open).
  previewOpenWords() {
    if (this.inlineText.hidden || document.activeElement !== this.inlineText) return;
    const id = this.inlineText.dataset.layer;
    this.editor.previewWords(this.inlineText, { layer: id }, () => this.editor.creation?.layers.find((l) => l.id === id)?.text ?? '');
  }

  async commitInlineText() {
    const field = this.inlineText;
    if (field.hidden) return;
    field.hidden = true;
    this.editor.stopPreviewingWords();
    const layer = this.editor.creation?.layers.find((l) => l.id === field.dataset.layer);
    if (!layer || field.dataset.cancelled || field.value === layer.text) { this.editor.showPicture(); return; }
    // Emptied: the box goes, as an emptied caption does (undo brings it back).
    if (!field.value.trim()) { await this.editor.commit({ op: 'layer remove', id: layer.id }, `removed ${spoken(layer)}: its words were emptied`); return; }
    await this.editor.commit({ op: 'layer set', id: layer.id, set: [`text=${field.value}`] }, `changed ${spoken(layer)} to ${spoken({ kind: 'text', text: field.value })}`);
  }
}

function round(value) { return Math.round(value * 10) / 10; }

// Whether a canvas point lies on a layer's box as drawn (turned about its centre).
function covers(layer, point) {
  const { x, y, rotation } = layer.transform;
  const radians = (-rotation * Math.PI) / 180;
  const dx = point.x - x, dy = point.y - y;
  const u = dx * Math.cos(radians) - dy * Math.sin(radians), v = dx * Math.sin(radians) + dy * Math.cos(radians);
  return Math.abs(u) <= layer.box.w / 2 && Math.abs(v) <= layer.box.h / 2;
}
function clamp(value, low, high) { return Math.min(high, Math.max(low, value)); }

// Fewer points for a long stroke: drop those closer than a pixel to the last kept.
function thin(points) {
  const kept = [points[0]];
  for (const p of points.slice(1)) {
    const last = kept[kept.length - 1];
    if (Math.hypot(p.x - last.x, p.y - last.y) >= 1) kept.push(p);
  }
  return kept.length > 1 ? kept : points.slice(0, 2);
}
