// A sign of work for any wait over 300 ms (a big picture's filter, a turn, an export):
// requests to the server and pictures loading are counted, and the indicator shows while
// any of them has run longer than that.
const SHOW_AFTER = 300;
let running = 0;
let timer = null;

function indicator() { return document.getElementById('busy'); }

function update() {
  if (running > 0 && timer === null) {
    timer = setTimeout(() => { if (running > 0) indicator().hidden = false; }, SHOW_AFTER);
  } else if (running === 0) {
    clearTimeout(timer);
    timer = null;
    indicator().hidden = true;
  }
}

export function begin() { running += 1; update(); }
export function end() { running = Math.max(0, running - 1); update(); }

// The work of a promise, counted from now until it settles.
export async function during(promise) {
  begin();
  try { return await promise; } finally { end(); }
}

// A picture's loading, counted until it has loaded or failed.
export function loading(img) {
  begin();
  const done = () => { img.removeEventListener('load', done); img.removeEventListener('error', done); end(); };
  img.addEventListener('load', done);
  img.addEventListener('error', done);
}
