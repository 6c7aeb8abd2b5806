// A colour in words ("red", "close to navy"), for messages: a person picks colours from a
// swatch and never sees the code the picker keeps (#ff0000).

const NAMES = [
  ['black', 0x000000], ['white', 0xffffff], ['grey', 0x808080], ['silver', 0xc0c0c0], ['dark grey', 0x404040],
  ['red', 0xff0000], ['dark red', 0x8b0000], ['pink', 0xffc0cb], ['hot pink', 0xff69b4], ['orange', 0xffa500],
  ['yellow', 0xffff00], ['gold', 0xffd700], ['brown', 0x8b4513], ['beige', 0xf5f5dc], ['green', 0x008000],
  ['lime', 0x00ff00], ['olive', 0x808000], ['teal', 0x008080], ['cyan', 0x00ffff], ['sky blue', 0x87ceeb],
  ['blue', 0x0000ff], ['navy', 0x000080], ['purple', 0x800080], ['violet', 0xee82ee], ['magenta', 0xff00ff],
];

export function colourName(hex) {
  const match = /^#?([0-9a-f]{6})/i.exec(hex || '');
  if (!match) return hex;
  const value = parseInt(match[1], 16);
  const channels = (v) => [v >> 16, (v >> 8) & 0xff, v & 0xff];
  const [r, g, b] = channels(value);
  // Weighted by how the eye weighs the channels (a cheap stand-in for a perceptual distance).
  const distance = ([r2, g2, b2]) => 2 * (r - r2) ** 2 + 4 * (g - g2) ** 2 + 3 * (b - b2) ** 2;
  let best = NAMES[0], nearest = Infinity;
  for (const entry of NAMES) {
    const d = distance(channels(entry[1]));
    if (d < nearest) { best = entry; nearest = d; }
  }
  return nearest === 0 ? best[0] : `close to ${best[0]}`;
}
