// The canvas's size from the page: room added on a side ("room above a photo" is where meme
// words go), fit to content, and the offer to grow the canvas when a layer is dragged past
// an edge. The engine does the work (`canvas extend`, `canvas fit`); this only asks.

import { spoken } from './layername.js';
import { fail } from './status.js';

export class Room {
  constructor(editor) {
    this.editor = editor;
    this.offer = document.getElementById('grow-canvas');
    this.size = document.getElementById('room-size');
    this.colour = document.getElementById('room-color');
    // The canvas keeps its own colour (white behind a photo) unless one is picked here:
    // the colour applies to the whole canvas, so it is never sent unasked.
    this.picked = false;
    this.colour.addEventListener('input', () => { this.picked = true; });
    const side = (id, key) => document.getElementById(id).addEventListener('click', () => this.add(key));
    side('room-top', 'top');
    side('room-bottom', 'bottom');
    side('room-left', 'left');
    side('room-right', 'right');
    document.getElementById('canvas-fit').addEventListener('click', () =>
      editor.commit({ op: 'canvas fit', ...this.background() }, 'fitted the canvas to the picture and layers'));
    this.offer.addEventListener('click', () => this.grow());
  }

  // Room on one side: the pixels asked for, or (the field empty) a quarter of the canvas
  // across that side. Nothing, or less than nothing, is said to be so, not replaced.
  add(side) {
    const { width, height } = this.editor.creation;
    const asked = this.size.value.trim() === '' ? null : Math.round(Number(this.size.value));
    if (asked !== null && !(asked >= 1)) {
      fail(new Error('give the space in pixels, 1 or more, or leave the field empty for a quarter of the canvas'));
      return;
    }
    const pixels = asked ?? Math.round((side === 'top' || side === 'bottom' ? height : width) / 4);
    this.editor.commit({ op: 'canvas extend', [side]: pixels, ...this.background() }, `added ${pixels} px of space ${words[side]}`);
  }

  background() { return this.picked ? { background: this.colour.value } : {}; }

  // After a layer was moved, turned or scaled: how far it reaches past each edge, and an
  // offer to grow the canvas by that much. Captions re-fit the canvas and drawings span it,
  // so neither asks.
  consider(layerId) {
    const creation = this.editor.creation;
    const layer = creation?.layers.find((l) => l.id === layerId);
    this.pending = null;
    this.offer.hidden = true;
    if (!layer || layer.kind === 'drawing' || (layer.kind === 'text' && layer.role !== 'free')) return;
    const corners = turnedCorners(layer);
    const xs = corners.map((p) => p.x), ys = corners.map((p) => p.y);
    const past = {
      left: Math.ceil(-Math.min(...xs)), top: Math.ceil(-Math.min(...ys)),
      right: Math.ceil(Math.max(...xs) - creation.width), bottom: Math.ceil(Math.max(...ys) - creation.height),
    };
    const margins = Object.fromEntries(Object.entries(past).filter(([, value]) => value >= 1));
    if (!Object.keys(margins).length) return;
    this.pending = { margins, label: spoken(layer) };
    const what = { image: 'sticker', text: 'text', shape: 'shape' }[layer.kind] || 'layer';
    // (In a span: two lines of it at most, where the button is a finger's height.)
    this.offer.replaceChildren(Object.assign(document.createElement('span'), { textContent: `Grow the canvas to fit the ${what}` }));
    this.offer.title = `${spoken(layer)} reaches past the edge: grow the canvas by as much`;
    this.offer.hidden = false;
  }

  dismiss() {
    this.pending = null;
    this.offer.hidden = true;
  }

  async grow() {
    const pending = this.pending;
    this.dismiss();
    if (!pending) return;
    const sides = Object.entries(pending.margins).map(([side, value]) => `${value} px ${words[side]}`).join(', ');
    await this.editor.commit({ op: 'canvas extend', ...pending.margins, ...this.background() }, `grew the canvas to hold ${pending.label}: ${sides}`);
  }
}

const words = { top: 'above', bottom: 'below', left: 'on the left', right: 'on the right' };

// The layer's box as drawn: turned about its centre by its rotation.
function turnedCorners(layer) {
  const { x, y, rotation } = layer.transform;
  const { w, h } = layer.box;
  const radians = (rotation * Math.PI) / 180, c = Math.cos(radians), s = Math.sin(radians);
  return [[-w / 2, -h / 2], [w / 2, -h / 2], [-w / 2, h / 2], [w / 2, h / 2]]
    .map(([u, v]) => ({ x: x + u * c - v * s, y: y + u * s + v * c }));
}
