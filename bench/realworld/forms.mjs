// Turns one real change (pre-image + git's hunks) into the calls agents really send for it — edit,
// multiedit, unified diffs (exact, shifted, numberless, miscounted), SEARCH/REPLACE, Codex patches —
// and the slips models make in them; every case expects the real post-commit bytes.
import { applyHunks, hashStr, hunkStart, rng, splitKeep } from './lib.mjs';

// Every case type, in table order, with the family that decides which tools can take it.
export const TYPES = [
  ['edit', 'edit'], ['multiedit', 'edit'], ['edit-create', 'edit'],
  ['edit-trailing-ws', 'edit'], ['edit-tabs-as-spaces', 'edit'], ['edit-curly-quotes', 'edit'],
  ['edit-lineno-arrow', 'edit'], ['edit-lineno-tab', 'edit'], ['edit-crlf-as-lf', 'edit'],
  ['udiff', 'udiff'], ['udiff-shifted', 'udiff'], ['udiff-nonum', 'udiff'], ['udiff-miscount', 'udiff'],
  ['udiff-ctx-first', 'udiff'], ['udiff-ctx-mid', 'udiff'], ['udiff-ctx-last', 'udiff'], ['udiff-ctx-added', 'udiff'],
  ['udiff-crlf-as-lf', 'udiff'], ['udiff-create', 'udiff'], ['udiff-create-crlf', 'udiff'],
  ['sr', 'sr'], ['sr-hint', 'sr'], ['sr-tabs-as-spaces', 'sr'], ['sr-crlf-as-lf', 'sr'],
  ['codex', 'codex'], ['codex-add', 'codex'],
];
export const FAMILY = Object.fromEntries(TYPES);

const term = (s) => (s.endsWith('\r\n') ? '\r\n' : s.endsWith('\n') ? '\n' : '');
const stripCr = (s) => s.replace(/\r\n/g, '\n');
const countOf = (hay, needle) => {
  let n = 0;
  for (let i = hay.indexOf(needle); i >= 0; i = hay.indexOf(needle, i + 1)) n++;
  return n;
};
const pad6 = (n) => String(n).padStart(6);

// old/new strings of an edit from whole lines: the last line's terminator is dropped on both sides
// when they share it (as an agent writes old_string), kept when the change is about that newline.
function joinEdit(oldLines, newLines) {
  let o = oldLines.join(''), n = newLines.join('');
  const to = oldLines.length ? term(oldLines[oldLines.length - 1]) : '';
  const tn = newLines.length ? term(newLines[newLines.length - 1]) : '';
  if (to && to === tn) { o = o.slice(0, -to.length); n = n.slice(0, -tn.length); }
  return [o, n];
}

// One edit per hunk, each located on the file as the edits before it left it, widened by whole
// lines of the file until old_string is unique there (as an agent adds context after "2 matches").
function editPlan(ch) {
  let state = ch.pre;
  let delta = 0;
  const plan = [];
  for (const h of ch.hunks) {
    const lines = splitKeep(state);
    const origStart = hunkStart(h);
    let start = origStart + delta;
    let oldL = h.lines.filter(([t]) => t !== '+').map(([, s]) => s);
    let newL = h.lines.filter(([t]) => t !== '-').map(([, s]) => s);
    if (oldL.length === 0) return null;
    let pre = 0;
    let [o, n] = joinEdit(oldL, newL);
    for (let k = 0; countOf(state, o) !== 1; k++) {
      if (k >= 12) return null;
      const end = start + oldL.length;
      if (start > 0) { oldL = [lines[start - 1], ...oldL]; newL = [lines[start - 1], ...newL]; start--; pre++; }
      if (end < lines.length) { oldL = [...oldL, lines[end]]; newL = [...newL, lines[end]]; }
      [o, n] = joinEdit(oldL, newL);
    }
    plan.push({ old: o, new: n, line: start + 1, origLine: origStart - pre + 1 });
    state = state.replace(o, () => n);
    delta += newL.length - oldL.length;
  }
  return plan;
}

function curly(s) {
  return s.split('\n').map((l) => {
    let open = true;
    return l.replace(/"/g, () => { const q = open ? '\u201c' : '\u201d'; open = !open; return q; }).replace(/'/g, '\u2019');
  }).join('\n');
}
const tabsToSpaces = (s) => s.replace(/^\t+/gm, (t) => '    '.repeat(t.length));
const dropTrailingWs = (s) => s.replace(/[ \t]+(?=\r?\n|$)/g, '');
const prefixLines = (s, first, fmt) => s.split('\n').map((l, i) => fmt(first + i) + l).join('\n');

// ---- unified diffs ------------------------------------------------------------------------------
function udiffBody(lines, lf) {
  let b = '';
  for (const [t, s0] of lines) {
    const s = lf ? stripCr(s0) : s0;
    b += s.endsWith('\n') ? `${t}${s}` : `${t}${s}\n\\ No newline at end of file\n`;
  }
  return b;
}
const range = (start, count) => (count === 1 ? `${start}` : `${start},${count}`);

function udiff(rel, hunks, { header = 'exact', r = null, omit = null, lf = false } = {}) {
  let out = `--- a/${rel}\n+++ b/${rel}\n`;
  let shift = 0;
  if (header === 'shifted') shift = (r() < 0.5 ? -1 : 1) * (3 + Math.floor(r() * 23));
  let omitted = false;
  for (const h of hunks) {
    let lines = h.lines;
    const oc = lines.filter(([t]) => t !== '+').length;
    const nc = lines.filter(([t]) => t !== '-').length;
    if (omit && !omitted) {
      const idx = omitIndex(lines, omit);
      if (idx >= 0) { lines = lines.filter((_, i) => i !== idx); omitted = true; }
    }
    if (header === 'nonum') out += '@@ @@\n';
    else if (header === 'miscount') {
      const wrong = (c) => (c <= 1 ? c + 1 + Math.floor(r() * 2) : c + (r() < 0.5 ? -1 : 1) * (1 + Math.floor(r() * 2)));
      out += `@@ -${h.os},${wrong(oc)} +${h.ns},${wrong(nc)} @@\n`;
    } else {
      const os = Math.max(1, h.os + shift), ns = Math.max(1, h.ns + shift);
      out += `@@ -${range(oc ? os : h.os, oc)} +${range(nc ? ns : h.ns, nc)} @@\n`;
    }
    out += udiffBody(lines, lf);
  }
  return omit && !omitted ? null : out;
}

// The context line a model leaves out: the hunk's first line, its last, or one between changes.
// 'mid': only a line whose place the rest still fixes: one between two change blocks that each
// remove a line (the second block's removed lines, listed first in it, mark where it starts).
// 'added': a line in the middle next to added lines that 'mid' does not take (issue 40): the added
// lines could go on either side of it and nothing in the hunk says which, so the one right answer
// is a refusal; a tool that guesses is WRONG as often as the guess is.
function omitIndex(lines, where) {
  if (where === 'first') return lines.length > 1 && lines[0][0] === ' ' ? 0 : -1;
  if (where === 'last') return lines.length > 1 && lines[lines.length - 1][0] === ' ' ? lines.length - 1 : -1;
  const blockRemoves = (i, step) => {
    for (let k = i; k >= 0 && k < lines.length && lines[k][0] !== ' '; k += step) if (lines[k][0] === '-') return true;
    return false;
  };
  for (let i = 1; i < lines.length - 1; i++) {
    if (lines[i][0] !== ' ') continue;
    const between = lines[i - 1][0] !== ' ' && lines[i + 1][0] !== ' ';
    const fixed = between && blockRemoves(i - 1, -1) && blockRemoves(i + 1, 1);
    if (where === 'mid' && fixed) return i;
    if (where === 'added' && !fixed && (lines[i - 1][0] === '+' || lines[i + 1][0] === '+')) return i;
  }
  return -1;
}

// ---- SEARCH/REPLACE and Codex -------------------------------------------------------------------
const MARKER = /^(<<<<<<< SEARCH|=======|>>>>>>> REPLACE|-------|:start_line:)/m;
function srBlocks(plan, hint, fn = (s) => s) {
  let d = '';
  for (const e of plan) {
    const o = fn(e.old), n = fn(e.new);
    if (MARKER.test(o) || MARKER.test(n) || o === n) return null;
    // Each section's text is followed by the line break before the next marker (so a section
    // whose text ends with a line break ends with an empty line); an empty section is no line.
    const nl = (s) => (s === '' ? '' : s + '\n');
    d += '<<<<<<< SEARCH\n' + (hint ? `:start_line:${e.origLine}\n-------\n` : '') + nl(o) + '=======\n' + nl(n) + '>>>>>>> REPLACE\n\n';
  }
  return d;
}

function codexPatch(rel, ch) {
  const pre = splitKeep(stripCr(ch.pre));
  let d = `*** Begin Patch\n*** Update File: ${rel}\n`;
  for (const h of ch.hunks) {
    const start = hunkStart(h);
    let anchor = '';
    for (let i = start - 1; i >= Math.max(0, start - 40); i--) {
      const l = pre[i].replace(/\n$/, '');
      if (/^[A-Za-z_#@]/.test(l) && l.trim().length > 3) { anchor = ` ${l}`; break; }
    }
    if (anchor && h.lines.some(([, s]) => stripCr(s).replace(/\n$/, '') === anchor.slice(1))) anchor = '';
    d += `@@${anchor}\n`;
    for (const [t, s] of h.lines) d += `${t}${stripCr(s).replace(/\n$/, '')}\n`;
    const oldCount = h.lines.filter(([t]) => t !== '+').length;
    if (start + oldCount === pre.length) d += '*** End of File\n';
  }
  return d + '*** End Patch\n';
}

// ---- all cases of one change --------------------------------------------------------------------
// rel: the path as the server's root sees it (diff headers); abs: absolute path (edit calls).
export function casesOf(ch, rel, abs) {
  const out = [];
  const add = (type, calls) => { if (calls) out.push({ id: `${ch.id}/${type}`, type, calls }); };
  const crlf = ch.variants.includes('crlf');
  if (ch.kind === 'create') {
    add('edit-create', [{ tool: 'edit', args: { file_path: abs, old_string: '', new_string: ch.post } }]);
    const lines = splitKeep(ch.post).map((s) => ['+', s]);
    const body = `--- /dev/null\n+++ b/${rel}\n@@ -0,0 +${range(1, lines.length)} @@\n${udiffBody(lines, false)}`;
    add(crlf ? 'udiff-create-crlf' : 'udiff-create', [{ tool: 'apply_diff', args: { diff: body } }]);
    if (!crlf && ch.post.endsWith('\n')) {
      add('codex-add', [{ tool: 'apply_diff', args: { diff: `*** Begin Patch\n*** Add File: ${rel}\n${lines.map(([, s]) => `+${s}`).join('')}*** End Patch\n` } }]);
    }
    return out.map((c) => ({ ...c, pre: null, expected: ch.post }));
  }
  const r = rng(hashStr(ch.id));
  const plan = editPlan(ch);
  const edits = (fnOld = (s) => s, fnNew = (s) => s) => plan.map((e) => ({ tool: 'edit', args: { file_path: abs, old_string: fnOld(e.old, e), new_string: fnNew(e.new, e) } }));
  const slip = (fnOld, fnNew = (s) => s) => {
    if (!plan) return null;
    const calls = edits(fnOld, fnNew);
    // A slip that leaves some edit asking for no change (a commit that only re-indented or only
    // dropped trailing blanks) is not a call anyone sends.
    if (calls.some((c) => c.args.old_string === c.args.new_string)) return null;
    return calls.some((c, i) => c.args.old_string !== plan[i].old) ? calls : null;
  };
  if (plan) {
    add('edit', edits());
    add('multiedit', [{ tool: 'multiedit', args: { file_path: abs, edits: plan.map((e) => ({ old_string: e.old, new_string: e.new })) } }]);
    // Not where the commit itself only strips a line's trailing blanks: dropped from old text too,
    // that change would be invisible in the call.
    const stripsBlanks = ch.hunks.some((h) => {
      const removed = new Set(h.lines.filter(([t]) => t === '-').map(([, x]) => x.replace(/[ \t]+(?=\r?\n?$)/, '')));
      return h.lines.some(([t, x]) => t === '+' && removed.has(x.replace(/[ \t]+(?=\r?\n?$)/, '')) && !h.lines.some(([u, y]) => u === '-' && y === x));
    });
    if (!stripsBlanks) add('edit-trailing-ws', slip((o) => dropTrailingWs(o)));
    if (/^\t/m.test(ch.pre)) add('edit-tabs-as-spaces', slip(tabsToSpaces, tabsToSpaces));
    add('edit-curly-quotes', slip(curly));
    add('edit-lineno-arrow', slip((o, e) => prefixLines(o, e.line, (n) => `${pad6(n)}\u2192`)));
    add('edit-lineno-tab', slip((o, e) => prefixLines(o, e.line, (n) => `${pad6(n)}\t`)));
    if (crlf) add('edit-crlf-as-lf', slip(stripCr, stripCr));
    const sr = (hint, fn) => { const d = srBlocks(plan, hint, fn); return d ? [{ tool: 'apply_diff', args: { file_path: abs, diff: d } }] : null; };
    add('sr', sr(false));
    add('sr-hint', sr(true));
    if (plan.some((e) => /^\t/m.test(e.old))) add('sr-tabs-as-spaces', sr(false, tabsToSpaces));
    if (crlf) add('sr-crlf-as-lf', sr(false, stripCr));
  }
  const ud = (o) => { const d = udiff(rel, ch.hunks, { r, ...o }); return d ? [{ tool: 'apply_diff', args: { diff: d } }] : null; };
  add('udiff', ud({}));
  add('udiff-shifted', ud({ header: 'shifted' }));
  add('udiff-nonum', ud({ header: 'nonum' }));
  add('udiff-miscount', ud({ header: 'miscount' }));
  add('udiff-ctx-first', ud({ omit: 'first' }));
  add('udiff-ctx-mid', ud({ omit: 'mid' }));
  add('udiff-ctx-last', ud({ omit: 'last' }));
  add('udiff-ctx-added', ud({ omit: 'added' }));
  if (crlf) add('udiff-crlf-as-lf', ud({ lf: true }));
  const expected = applyHunks(ch.pre, ch.hunks);
  // A Codex patch has no way to say "no newline at end of file": only where that does not change.
  if (ch.pre.endsWith('\n') === expected.endsWith('\n')) add('codex', [{ tool: 'apply_diff', args: { diff: codexPatch(rel, ch) } }]);
  return out.map((c) => ({ ...c, pre: ch.pre, expected }));
}
