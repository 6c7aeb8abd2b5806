// The HTTP API of `memery serve` (schemas/openapi.yaml), as the page uses it. The token
// travels as the cookie the first visit set; every answer that is not 2xx becomes an Error
// carrying the server's own message.

import { during } from './busy.js';

const enc = encodeURIComponent;
// A query as the server reads it: URLSearchParams writes a space as "+", which the server
// (as RFC 3986 has it) keeps as a plus sign; a plus typed is already "%2B".
const spelled = (query) => query.toString().replaceAll('+', '%20');

// The hub's sign-in page, after this browser's session ended elsewhere (another device
// signed it out, or the password changed): it says so, and signing in again comes back to
// the same place (the address's #/creation/… part).
export function toSignIn() {
  // The editor keeps what was typed and not yet sent (main.js `keepDrafts`).
  window.dispatchEvent(new Event('memery-signing-out'));
  sessionStorage.setItem('memery-signed-out', 'this browser was signed out: another device ended its session, or the password was changed. Sign in again to go on');
  // The hub answers "/" with the sign-in page now. A replace by the same address with only
  // its #… part would not load anything, so the page is loaded again instead.
  if (location.pathname === '/') location.reload(); else location.replace('/' + location.hash);
}

function call(method, path, body, contentType, signal) { return during(request(method, path, body, contentType, signal)); }

async function request(method, path, body, contentType, signal) {
  const options = { method, headers: {}, signal };
  if (body !== undefined) {
    if (body instanceof Blob || body instanceof ArrayBuffer) {
      options.body = body;
      options.headers['Content-Type'] = contentType || body.type || 'application/octet-stream';
    } else {
      options.body = JSON.stringify(body);
      options.headers['Content-Type'] = 'application/json';
    }
  }
  const answer = await fetch(path, options);
  const type = answer.headers.get('Content-Type') || '';
  const data = type.startsWith('application/json') ? await answer.json() : await answer.blob();
  // On a hub, a session revoked from another device signs this page out.
  if (answer.status === 401 && path.startsWith('/api/') && data.kind === 'signedOut') { toSignIn(); }
  if (!answer.ok) {
    const error = new Error(data.error || `${answer.status} ${answer.statusText}`);
    error.status = answer.status;
    error.details = data;
    throw error;
  }
  return data;
}

export const api = {
  gallery: ({ search = '', favorites = false, trash = false } = {}) =>
    call('GET', `/api/creations?search=${enc(search)}&favorites=${favorites}&trash=${trash}`),
  creation: (name) => call('GET', `/api/creations/${enc(name)}`),
  // The whole tree, or with `since` (events seen) and `tip` (the fingerprint the tree
  // seen came with) only what came after: the answer says `since` when it is a part.
  history: (name, since, tip) => call('GET', `/api/creations/${enc(name)}/history` + (tip ? `?since=${since}&tip=${enc(tip)}` : '')),
  hit: (name, x, y) => call('GET', `/api/creations/${enc(name)}/hit?x=${x}&y=${y}`),
  upload: (file, name) =>
    call('POST', `/api/creations?filename=${enc(file.name || 'picture')}${name ? `&name=${enc(name)}` : ''}`, file),
  create: (fields) => call('POST', '/api/creations', fields),
  // One gesture, one edit: `edit` is one object of `memery apply`'s JSON, or a list.
  edit: (name, edit, expectedVersion) =>
    call('POST', `/api/creations/${enc(name)}/edits`,
      expectedVersion === undefined ? edit : { edits: [].concat(edit), expectedVersion }),
  renderURL: (name, { width, version, format = 'auto' } = {}) =>
    `/api/creations/${enc(name)}/render?format=${format}` + (width ? `&width=${width}` : '') + (version ? `&version=${version}` : ''),
  // The picture with a filter as it would be applied, stored nowhere.
  previewURL: (name, filter, { width, settings = [], layer, canvas, version } = {}) => {
    const query = new URLSearchParams({ filter, width: String(width) });
    for (const setting of settings) query.append('set', setting);
    if (layer) query.set('layer', layer);
    if (canvas) query.set('canvas', 'true');
    if (version) query.set('version', String(version));  // a new address for each state: no stale thumbnail
    return `/api/creations/${enc(name)}/preview?${spelled(query)}`;
  },
  // The picture with the filter applied at `position` (1 first) changed by `settings`, stored
  // nowhere: an applied filter's slider as it is dragged.
  settingsPreviewURL: (name, position, { width, settings = [], version } = {}) => {
    const query = new URLSearchParams({ position: String(position), width: String(width) });
    for (const setting of settings) query.append('set', setting);
    if (version) query.set('version', String(version));  // a new address for each state
    return `/api/creations/${enc(name)}/preview?${spelled(query)}`;
  },
  // The picture with words as typed into a caption (`caption`: top or bottom) or a text
  // layer (`layer`), stored nowhere.
  textPreviewURL: (name, { text, caption, layer, width, version }) => {
    const query = new URLSearchParams({ text, width: String(width) });
    if (caption) query.set('caption', caption); else query.set('layer', layer);
    if (version) query.set('version', String(version));  // a new address for each state
    return `/api/creations/${enc(name)}/text-preview?${spelled(query)}`;
  },
  exportURL: (name, format, quality) => `/api/creations/${enc(name)}/export?format=${format}&quality=${quality}`,
  // The export's bytes, or the engine's words for why it was refused (never its error as a file).
  exported: (name, format, quality) => call('GET', `/api/creations/${enc(name)}/export?format=${format}&quality=${quality}`),
  filters: () => call('GET', '/api/filters'),
  fonts: () => call('GET', '/api/fonts'),
  garage: () => call('GET', '/api/garage'),
  stickers: () => call('GET', '/api/stickers'),
  stickerPictureURL: (name) => `/api/stickers/${enc(name)}/picture`,
  // A picture from a link, downloaded by the server into the garage; `signal` cancels it
  // (the server then stops and keeps nothing).
  fromLink: (url, signal) => call('POST', '/api/garage', { url }, undefined, signal),
  // Openly licensed pictures on the web, by provider; one of them taken (with its credits) into the garage.
  webSearch: (words) => call('GET', `/api/web/search?q=${enc(words)}`),
  fromWeb: (reference) => call('POST', '/api/garage', { web: reference }),
  addToGarage: (file) => call('POST', `/api/garage?filename=${enc(file.name || 'sticker')}`, file),
  garagePictureURL: (name, width) => `/api/garage/${enc(name)}/picture?width=${width}`,
  templates: () => call('GET', '/api/templates'),
  // The hub the store is logged in to (404-free: `connected: false` when it is not).
  hub: () => call('GET', '/api/hub'),
  recommended: (week) => call('GET', '/api/hub/recommended' + (week ? `?week=${enc(week)}` : '')),
  searchHub: (words) => call('GET', `/api/hub/search?q=${enc(words)}`),
  useFromHub: (id, name) => call('POST', '/api/hub/use', name ? { id, name } : { id }),
  share: (name, format, quality) => call('POST', `/api/creations/${enc(name)}/share`, { format, quality }),
  recommend: (creation, title, tags) => call('POST', '/api/hub/recommendations', { creation, title, tags }),
  moveRecommendation: (id, position) => call('PUT', `/api/hub/recommendations/${enc(id)}/position`, { position }),
  takeDown: (id) => call('DELETE', `/api/hub/library/${enc(id)}`),
  // Every change to the store, from this page, another tab or another process.
  changes: (onChange) => {
    const source = new EventSource('/api/events');
    source.addEventListener('change', (event) => onChange(JSON.parse(event.data)));
    // On a hub, this browser's session ended elsewhere: the sign-in page now, not at the
    // next request (a page left open would go on showing the person's creations).
    source.addEventListener('signedOut', () => { source.close(); toSignIn(); });
    return source;
  },
};
