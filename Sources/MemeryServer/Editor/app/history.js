// The history: every edit as a node of a tree (branches made by editing after an undo stay),
// any node a click away, and a slider that scrubs through the creation's past: each step
// shows the engine's picture as it was right after that event, and "Go back here" checks
// it out (an edit itself, which undo can take back).
import { api } from './api.js';
import { say } from './status.js';

export class History {
  constructor(editor) {
    this.editor = editor;
    this.list = document.getElementById('history');
    this.slider = document.getElementById('time-slider');
    this.label = document.getElementById('time-label');
    this.go = document.getElementById('time-go');
    this.tree = null;
    this.slider.addEventListener('input', () => this.scrub());
    this.go.addEventListener('click', () => {
      const newest = this.tree.nodes.reduce((a, b) => (b.time > a.time ? b : a), this.tree.nodes[0]);
      editor.commit({ op: 'checkout', event: this.editShownAfter(Number(this.slider.value)) },
        `went back to event ${this.slider.value}: Undo steps further back; to return, click v${newest.version} in History`);
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

  async refresh(name) {
    this.tree = await api.history(name);
    const tree = this.tree;
    const byVersion = new Map(tree.nodes.map((node) => [node.version, node]));
    const depth = (node) => { let d = 0; for (let n = node; n.parent !== null; n = byVersion.get(n.parent)) if (byVersion.get(n.parent).children.length > 1) d++; return d; };
    this.list.replaceChildren(...tree.nodes.slice().reverse().map((node) => {
      const item = document.createElement('li');
      const button = document.createElement('button');
      button.type = 'button';
      button.style.marginLeft = `${depth(node)}em`;
      button.textContent = `v${node.version} ${this.editor.panels.named(node.summary)}`;
      button.title = new Date(node.time).toLocaleString();
      if (node.version === tree.head) { item.className = 'head'; button.setAttribute('aria-current', 'step'); }
      button.addEventListener('click', () => this.editor.commit({ op: 'checkout', event: node.version }, `checked out v${node.version}`));
      item.append(button);
      return item;
    }));
    this.slider.min = String(tree.nodes[0]?.version ?? 1);  // before its first edit, the creation was not there
    this.slider.max = String(tree.events);
    this.slider.value = String(tree.events);
    this.editor.showingPast = false;
    this.go.disabled = true;
    this.label.textContent = 'now';
  }

  // Shows the picture as it was right after event V (nothing is stored while scrubbing).
  scrub() {
    const version = Number(this.slider.value);
    const now = version === this.tree.events;
    const batchTime = this.timeOf(version);
    this.label.textContent = now ? 'now' : `event ${version}${batchTime ? `, ${ago(batchTime)}` : ''}`;
    this.go.disabled = now;
    // The past is only shown: no layer of it can be selected, and edits go to the present.
    this.editor.showingPast = !now;
    this.editor.showPicture(now ? undefined : version);
    this.editor.stage.showSelection();
    say(now ? '' : `showing the picture after event ${version}; edits still apply to now — “Go back here” makes this now`);
  }

  timeOf(version) {
    const times = [...this.tree.nodes.map((n) => [n.firstVersion, n.version, n.time]), ...this.tree.moves.map((m) => [m.version, m.version, m.time])];
    return times.find(([first, last]) => version >= first && version <= last)?.[2];
  }
}

function ago(time) {
  const seconds = Math.max(0, Math.round((Date.now() - time) / 1000));
  if (seconds < 60) return `${seconds}s ago`;
  if (seconds < 3600) return `${Math.round(seconds / 60)}m ago`;
  if (seconds < 86400) return `${Math.round(seconds / 3600)}h ago`;
  return new Date(time).toLocaleDateString();
}
