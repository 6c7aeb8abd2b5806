// A layer as a message names it ("moved “HELLO”", "removed the sticker"): the words people
// see on the picture, not the engine's label (L1), which only the CLI shows.

const SHAPES = { rect: 'the rectangle', ellipse: 'the ellipse', line: 'the line' };

// The stickers that ship with Memery, by name ("deal-with-it"): a layer of one is "the deal
// with it sticker", as adding it said, not the picture deal-with-it.png.
const bundled = new Set();
export function knowStickers(names) { for (const name of names) bundled.add(name); }
export function stickerName(layer) {
  const source = layer?.image?.sourceName || '';
  const name = source.replace(/\.png$/, '');
  return source !== name && bundled.has(name) ? name.replaceAll('-', ' ') : null;
}

export function spoken(layer) {
  if (!layer) return 'the layer';
  if (layer.kind === 'text') {
    const words = (layer.text || '').trim();
    return words ? `“${words.length > 24 ? words.slice(0, 23) + '…' : words}”` : 'the text';
  }
  if (layer.kind === 'shape') return SHAPES[layer.shape?.kind] || 'the shape';
  if (layer.kind === 'image') {
    const source = layer.image?.sourceName || '';
    if (source.startsWith('emoji ')) return `the ${source.slice(6)}`;  // "moved the 🔥", not "the picture emoji 🔥"
    if (stickerName(layer)) return `the ${stickerName(layer)} sticker`;
    return source ? `the picture ${source}` : 'the picture';
  }
  if (layer.kind === 'drawing') return 'the drawing';
  return 'the layer';
}
