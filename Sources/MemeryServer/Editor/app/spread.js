// A slider over a wide range whose useful values are small, as a blur's radius (0 to 500,
// 5 at first) or a pixel size (1 to 1024, 10 at first). Spread evenly, 5 sits at the first
// hundredth of the track and a phone's finger moves it by two at the smallest slide (a
// walk-through could not aim it). Spread by magnitude instead, each step of the track
// multiplies (value - min + 1) alike: the default sits near the first third and small values
// get most of the travel, while the top of the range stays in reach.

const STEPS = 200;  // about 1.5 px a step on a phone's track: each arrow key changes the value

// Whether a parameter's slider is spread by magnitude: a range of 50 or more whose default
// lies in its lowest tenth. Ranges like 0-1 or -1-1 stay even.
export function spreadsBy(param) {
  const min = Number(param.min), max = Number(param.max), initial = Number(param.default);
  const span = max - min;
  return (param.type === 'number' || param.type === 'integer') && span >= 50 && initial - min < span / 10;
}

// The slider's position for a value, and the value at a position, rounded as a person reads
// it (two significant figures, whole numbers for an integer). The ends are exact.
export function positionOf(param, value) {
  const min = Number(param.min), span = Number(param.max) - min;
  const clamped = Math.min(Math.max(Number(value), min), min + span);
  return Math.round(STEPS * Math.log(clamped - min + 1) / Math.log(span + 1));
}

export function valueAt(param, position) {
  const min = Number(param.min), max = Number(param.max);
  if (position <= 0) return min;
  if (position >= STEPS) return max;
  const raw = min + (max - min + 1) ** (position / STEPS) - 1;
  const rounded = param.type === 'integer' ? Math.round(raw) : Number(raw.toPrecision(2));
  return Math.min(Math.max(rounded, min), max);
}

// Makes `input` (type range) such a slider showing `value`. A value no position rounds to
// (a radius of 137 stored from the command line) is kept exact while the slider stays there.
export function spread(input, param, value) {
  input.min = 0;
  input.max = STEPS;
  input.step = 1;
  input.value = positionOf(param, value);
  input.dataset.spread = JSON.stringify({ min: param.min, max: param.max, type: param.type });
  if (String(valueAt(param, Number(input.value))) !== String(Number(value))) {
    input.dataset.exact = String(value);
    input.dataset.exactAt = input.value;
  }
  input.setAttribute('aria-valuetext', String(value));
}

// The value a control stands for: what a filter setting is sent as.
export function settingOf(input) {
  if (input.type === 'checkbox') return String(input.checked);
  if (!input.dataset.spread) return input.value;
  if (input.dataset.exact !== undefined && input.value === input.dataset.exactAt) return input.dataset.exact;
  return String(valueAt(JSON.parse(input.dataset.spread), Number(input.value)));
}

// Called as the slider moves: what it now stands for, said to a screen reader too.
export function moved(input) {
  if (!input.dataset.spread) return input.value;
  const value = settingOf(input);
  input.setAttribute('aria-valuetext', value);
  return value;
}
