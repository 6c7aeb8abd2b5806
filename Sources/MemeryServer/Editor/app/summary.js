// The engine's summaries of edits ("created "x"; blank 60x40 canvas (#ffffff)"), taken
// apart where people's own words cannot be mistaken for the engine's: a caption "wait; what"
// or "#facade" is quoted there, and stays as it was written.

// The summary's steps (one per event), split at "; " outside quoted words.
export function steps(summary) {
  const found = [];
  let start = 0, quoted = false;
  for (let i = 0; i < summary.length; i++) {
    const c = summary[i];
    if (quoted && c === '\\') { i++; continue; }  // an escaped character inside the quotes
    if (c === '"') quoted = !quoted;
    else if (!quoted && c === ';' && summary[i + 1] === ' ') { found.push(summary.slice(start, i)); start = i + 2; i++; }
  }
  found.push(summary.slice(start));
  return found;
}

// `text` with `change` applied to its parts outside quoted words only.
export function outsideQuotes(text, change) {
  let out = '', part = '', quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      part += c;
      if (c === '\\' && i + 1 < text.length) { part += text[++i]; continue; }
      if (c === '"') { out += part; part = ''; quoted = false; }
    } else if (c === '"') {
      out += change(part); part = c; quoted = true;
    } else part += c;
  }
  return out + (quoted ? part : change(part));
}
