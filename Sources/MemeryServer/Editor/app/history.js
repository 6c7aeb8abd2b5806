// The history: every edit as a node of a tree (branches made by editing after an undo stay),
// any node a click away, and a slider that scrubs through the creation's past: each step
// shows the engine's picture as it was right after that event, and "Go back here" checks
// it out (an edit itself, which undo can take back).
import { api } from './api.js';
import { spoken } from './layername.js';
import { say } from './status.js';
import { steps } from './summary.js';
import { tapOrClick, touching } from './pointer.js';

export class History {
  constructor(editor) {
    this.editor = editor;
    this.list = document.getElementById('history');
    this.slider = document.getElementById('time-slider');
    this.label = document.getElementById('time-label');
    this.go = document.getElementById('time-go');
    this.tree = null;
    this.treeOf = null;  // the creation `tree` is of
    this.stale = true;  // fetched when its sheet opens
    this.shown = ROWS;  // the newest rows drawn; more on request
    this.more = document.getElementById('history-more');
    this.more.addEventListener('click', () => { this.shown += ROWS; this.draw(); });
    this.slider.addEventListener('input', () => this.scrub());
    this.go.addEventListener('click', () => {
      const newest = this.tree.nodes.reduce((a, b) => (b.time > a.time ? b : a), this.tree.nodes[0]);
      const shown = this.editShownAfter(Number(this.slider.value));
      editor.commit({ op: 'checkout', event: shown },
        `went back to edit #${shown}: Undo steps further back; to return, ${tapOrClick()} #${newest.version} in History`);
    });
  }

  // The slider scrubs every event, undos included; a checkout names an edit (as History
  // lists them): the one shown right after `event`.
  editShownAfter(event) {
    let shown = null, at = 0;
    for (const node of this.tree.nodes) if (node.firstVersion <= event && node.firstVersion >= at) { shown = node.version; at = node.firstVersion; }
    for (const move of this.tree.moves) if (move.version <= event && move.version >= at) { shown = move.to; at = move.version; }
    return shown;
  }

  // The tree fetched again: only what came after the part already here, when it is of this
  // creation (a 10,000-edit tree is not sent again for each edit).
  async refresh(name) {
    this.stale = false;
    // One refresh at a time: one asked for meanwhile runs after it, on its answer.
    if (this.refreshing) { this.again = name; return this.refreshing; }
    this.refreshing = this.fetch(name);
    try { await this.refreshing; } finally { this.refreshing = null; }
    if (this.again) { const next = this.again; this.again = null; await this.refresh(next); }
  }

  async fetch(name) {
    const known = this.treeOf === name ? this.tree : null;
    const answer = await api.history(name, known?.events, known?.tip);
    if (answer.since !== undefined && known && answer.since === known.events) {
      // The new edits' parents gain them as children: copies, the tree held is not changed.
      const added = new Map();
      for (const node of answer.nodes) {
        const parent = added.get(node.parent) || known.nodes.find((n) => n.version === node.parent);
        if (parent) added.set(parent.version, { ...parent, children: [...parent.children, node.version] });
      }
      const nodes = known.nodes.map((node) => added.get(node.version) || node);
      for (const node of answer.nodes) nodes.push(added.get(node.version) || node);
      this.tree = { ...answer, nodes, moves: [...known.moves, ...answer.moves] };
    } else {
      this.tree = answer;
      this.shown = ROWS;
    }
    this.treeOf = name;
    this.draw();
  }

  draw() {
    const tree = this.tree;
    const graph = lanes(tree);
    const row = touching() ? 48 : 36;  // a finger's 44 px button, and room between
    const width = 12 + graph.count * 16;
    const newest = tree.nodes.reduce((a, b) => (b.time > a.time || (b.time === a.time && b.version > a.version) ? b : a), tree.nodes[0]);
    // Back to the newest edit, one tap away, whenever the head is elsewhere (after undo or a checkout).
    const back = document.getElementById('history-newest');
    back.hidden = !newest || newest.version === tree.head;
    if (newest) {
      back.textContent = `Back to the newest (#${newest.version})`;
      back.onclick = () => this.editor.commit({ op: 'checkout', event: newest.version }, `back to the newest, edit #${newest.version}`);
    }
    // The newest rows only: a long history draws in a blink, and older rows come on request.
    const gone = namedByHistory(tree, this.editor.panels.filters);
    // The edits on the way to the creation as it is now: their labels are the ones it has.
    const current = new Set();
    const byVersion = new Map(tree.nodes.map((n) => [n.version, n]));
    for (let node = byVersion.get(tree.head); node; node = byVersion.get(node.parent)) current.add(node.version);
    this.more.hidden = graph.rows.length <= this.shown;
    this.more.textContent = `Show older edits (${graph.rows.length - this.shown} more)`;
    this.list.replaceChildren(...graph.rows.slice(0, this.shown).map((node, index) => {
      const item = document.createElement('li');
      item.style.height = `${row}px`;
      item.dataset.version = String(node.version);
      item.dataset.lane = String(graph.lane.get(node.version));
      item.append(drawRow(graph, index, width, row));
      const button = document.createElement('button');
      button.type = 'button';
      // What is shown now comes first: a long summary is what a narrow screen cuts short.
      const words = document.createElement('span');
      const shown = node.version === tree.head;
      item.dataset.summary = this.editor.panels.named(node.summary, gone(node.version), current.has(node.version));
      words.textContent = rowWords(node.version, shown ? ' · shown now ·' : '', item.dataset.summary);
      button.append(words);
      button.title = `${new Date(node.time).toLocaleString()}: ${words.textContent}`;
      if (shown) {
        item.className = 'head';
        button.setAttribute('aria-current', 'step');
      }
      button.addEventListener('click', () => this.editor.commit({ op: 'checkout', event: node.version }, `went back to edit #${node.version}`));
      item.append(button);
      return item;
    }));
    this.slider.min = String(tree.nodes[0]?.version ?? 1);  // before its first edit, the creation was not there
    this.slider.max = String(tree.events);
    this.slider.value = String(tree.events);
    this.editor.showingPast = false;
    this.editor.showChosenActions();
    this.list.classList.remove('scrubbing');
    this.go.disabled = true;
    this.label.textContent = 'now';
  }

  // Shows the picture as it was right after event V (nothing is stored while scrubbing),
  // named as History names it: the edit it shows (an undo's event shows an older edit).
  scrub() {
    const version = Number(this.slider.value);
    const now = version === this.tree.events;
    const batchTime = this.timeOf(version);
    const shown = this.editShownAfter(version) ?? version;
    // An undo, a redo or a checkout is a step of its own that shows an older edit: said so,
    // since the same v comes again.
    const move = this.tree.moves.find((m) => m.version === version);
    this.label.textContent = now ? 'now' : `#${shown}${move ? ` (${move.cause})` : ''}${batchTime ? ` · ${ago(batchTime)}` : ''}`;
    // The edit shown is marked in the list too, beside the one the creation is at.
    // The head's row says "shown now" only while it is: scrubbing, the picture is the marked
    // row's, and the head is only where the creation is.
    for (const item of this.list.children) {
      const version = Number(item.dataset.version);
      const scrubbed = !now && version === shown;
      item.classList.toggle('scrubbed', scrubbed);
      const mark = version === this.tree.head ? (now || scrubbed ? ' · shown now ·' : ' · now ·') : (scrubbed ? ' · shown ·' : '');
      const words = item.querySelector('button span');
      if (words) words.textContent = rowWords(version, mark, item.dataset.summary);
      if (scrubbed) item.scrollIntoView({ block: 'nearest' });  // the row of the picture shown, in view
    }
    this.list.classList.toggle('scrubbing', !now);  // the head's row no longer looks like the one shown
    this.go.disabled = now;
    // The past is only shown: no layer of it can be selected, and edits go to the present.
    this.editor.showingPast = !now;
    this.editor.showChosenActions();
    this.editor.showPicture(now ? undefined : version);
    this.editor.stage.showSelection();
    say(now ? '' : `showing edit #${shown}; edits still apply to now — “Go back here” makes this now`);
  }

  timeOf(version) {
    const times = [...this.tree.nodes.map((n) => [n.firstVersion, n.version, n.time]), ...this.tree.moves.map((m) => [m.version, m.version, m.time])];
    return times.find(([first, last]) => version >= first && version <= last)?.[2];
  }
}

const ROWS = 200;

function ago(time) {
  const seconds = Math.max(0, Math.round((Date.now() - time) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)}h ago`;
  return new Date(time).toLocaleDateString();
}

// The tree as a git client draws it: the newest edit on top, each line of edits in a lane
// of its own, the line that leads to the head straight down lane 0.
function lanes(tree) {
  const byVersion = new Map(tree.nodes.map((node) => [node.version, node]));
  const towardHead = new Set();
  for (let n = byVersion.get(tree.head); n; n = n.parent === null ? null : byVersion.get(n.parent)) towardHead.add(n.version);
  const lane = new Map();
  let count = 0;
  for (const node of [...tree.nodes].sort((a, b) => a.version - b.version)) {
    if (!lane.has(node.version)) lane.set(node.version, count++);
    const children = node.children.map((v) => byVersion.get(v)).filter(Boolean).sort((a, b) => a.version - b.version);
    const heir = children.find((c) => towardHead.has(c.version)) || children[0];
    for (const child of children) lane.set(child.version, child === heir ? lane.get(node.version) : count++);
  }
  const rows = [...tree.nodes].sort((a, b) => b.version - a.version);
  const rowOf = new Map(rows.map((node, index) => [node.version, index]));
  const edges = rows.filter((n) => n.parent !== null && byVersion.has(n.parent))
    .map((n) => ({ from: rowOf.get(n.version), to: rowOf.get(n.parent), lane: lane.get(n.version), parentLane: lane.get(n.parent) }));
  return { rows, lane, edges, count: Math.max(count, 1), head: tree.head };
}

// One row's part of the drawing: the lines passing through it and its own dot.
function drawRow(graph, index, width, height) {
  const ns = 'http://www.w3.org/2000/svg';
  const svg = document.createElementNS(ns, 'svg');
  svg.setAttribute('width', String(width));
  svg.setAttribute('height', String(height));
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('lanes');
  const x = (lane) => 10 + lane * 16, mid = height / 2;
  const line = (x1, y1, x2, y2) => {
    const l = document.createElementNS(ns, 'line');
    for (const [k, v] of Object.entries({ x1, y1, x2, y2 })) l.setAttribute(k, String(v));
    svg.append(l);
  };
  for (const edge of graph.edges) {
    if (edge.from === index) line(x(edge.lane), mid, x(edge.lane), height);
    else if (edge.from < index && index < edge.to) line(x(edge.lane), 0, x(edge.lane), height);
    else if (edge.to === index) line(x(edge.lane), 0, x(edge.parentLane), mid);
  }
  const node = graph.rows[index];
  const dot = document.createElementNS(ns, 'circle');
  dot.setAttribute('cx', String(x(graph.lane.get(node.version))));
  dot.setAttribute('cy', String(mid));
  dot.setAttribute('r', node.version === graph.head ? '6' : '4');
  if (node.version === graph.head) dot.classList.add('head');
  svg.append(dot);
  return svg;
}

// Each layer and filter as the history's own words named it when it was added ("added rect
// L4 (…)", "filtered base with org.memery.sepia (F2)"): the names of those the creation no
// longer has, after going back past them. Labels are counted along each branch, so two
// branches may each have an L4: a row's label is the one added on the row's own way back
// to the first edit. Returns, for a row's version, its label → name lookup.
function namedByHistory(tree, filters) {
  const added = new Map();  // label → [{ version, name }]
  const note = (label, version, name) => { if (!added.has(label)) added.set(label, []); added.get(label).push({ version, name }); };
  for (const node of tree.nodes) {
    for (const step of steps(node.summary)) {
      const filtered = /^filtered .* with (\S+) \((F\d+)\)$/.exec(step);
      if (filtered) { note(filtered[2], node.version, filters.find((f) => f.id === filtered[1])?.name || filtered[1]); continue; }
      const drawing = /^drew on a new drawing layer (L\d+)$/.exec(step);
      if (drawing) { note(drawing[1], node.version, 'the drawing'); continue; }
      const layer = /^added (top |bottom |free )?(text|image|rect|ellipse|line|shape) (L\d+)(?: (.*))?$/.exec(step);
      if (!layer) continue;
      const [, role, kind, label, rest = ''] = layer;
      if (kind === 'text') {
        const words = /^"(.*)"$/.exec(rest)?.[1]?.replace(/\\(.)/g, '$1') ?? '';
        note(label, node.version, role === 'top ' || role === 'bottom ' ? `the ${role.trim()} caption` : spoken({ kind: 'text', text: words }));
      } else if (kind === 'image') {
        note(label, node.version, spoken({ kind: 'image', image: { sourceName: rest.replace(/ \(\d+x\d+\)$/, '') } }));
      } else note(label, node.version, spoken({ kind: 'shape', shape: { kind } }));
    }
  }
  const byVersion = new Map(tree.nodes.map((n) => [n.version, n]));
  return (version) => (label) => {
    const found = added.get(label);
    if (!found) return undefined;
    if (found.length === 1) return found[0].name;
    // Added on several branches: the one on this row's way back (the row itself first).
    const at = new Map(found.map((f) => [f.version, f.name]));
    for (let node = byVersion.get(version); node; node = byVersion.get(node.parent)) if (at.has(node.version)) return at.get(node.version);
    return undefined;
  };
}

// A row's words: its version, what it is to the picture shown (the head's "shown now"), and
// what the edit did.

function rowWords(version, mark, summary) {
  return `#${version}${mark} ${summary}`;
}
