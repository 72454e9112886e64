#!/usr/bin/env node
// Builds the real-history edit corpus: real file changes (pre-image + git's hunks, so the exact
// post-image is rebuilt and checked here) picked deterministically from git histories, gzip'd JSON.
//
// Usage:
//   node bench/realworld/generate.mjs                 # this repository's own history (committed corpus)
//       -> bench/realworld/cases.json.gz
//   node bench/realworld/generate.mjs --public NAME=GITDIR:LANG ...
//       -> bench/realworld/.cache/public.json.gz (not committed: other projects' code stays out of
//          this repository; the git dirs come from `fetch`, e.g. tmux, psf/requests, express)
// Options: --out=FILE, --seed=N, --per-lang=N (changes per language), --until=REV (self source).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';
import { rng, hashStr, applyHunks } from './lib.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');

// The self corpus is pinned to this commit of this repository so regenerating gives the same bytes.
const SELF_UNTIL = '19527335ad540d7bbe07ef4089e726e2fe47c61b';
const MAX_BYTES = 40 * 1024;
const MAX_CREATE_BYTES = 12 * 1024;

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const a = args.find((x) => x.startsWith(`--${name}=`));
  return a ? a.slice(name.length + 3) : dflt;
};
const publicSources = [];
for (let i = 0; i < args.length; i++) {
  if (args[i] === '--public') {
    while (i + 1 < args.length && !args[i + 1].startsWith('--')) {
      const m = /^([^=]+)=(.+):(\w+)$/.exec(args[++i]);
      if (!m) { console.error(`generate.mjs: --public takes NAME=GITDIR:LANG, got ${args[i]}`); process.exit(2); }
      publicSources.push({ name: m[1], gitDir: m[2], lang: m[3] });
    }
  }
}
const isPublic = publicSources.length > 0;
const SEED = Number(opt('seed', '20261126'));
const OUT = opt('out', isPublic ? path.join(here, '.cache', 'public.json.gz') : path.join(here, 'cases.json.gz'));

function git(gitDir, ...a) {
  return execFileSync('git', ['--git-dir', gitDir, ...a], { maxBuffer: 256 * 1024 * 1024 });
}

function langOf(p) {
  if (/\.(c|h|cc|cpp|hpp|hh|cxx)$/.test(p)) return 'c';
  if (/\.py$/.test(p)) return 'py';
  if (/\.(js|mjs|cjs|ts|tsx|jsx)$/.test(p)) return 'js';
  if (/\.(md|txt|cmake|json|jsonl|yml|yaml|toml|sh|cfg|ini|rst)$|(^|\/)(CMakeLists\.txt|Makefile[^/]*|[^/.]+)$/.test(p)) return 'text';
  return null;
}

// git's -U3 hunks as {os, ns, lines: [[tag, text-with-terminator]]}.
function parseHunks(diffText) {
  const hunks = [];
  let cur = null;
  const raw = diffText.split('\n');
  if (raw[raw.length - 1] === '') raw.pop();
  for (const l of raw) {
    const m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(l);
    if (m) { cur = { os: Number(m[1]), ns: Number(m[3]), lines: [] }; hunks.push(cur); continue; }
    if (!cur) continue;
    if (l.startsWith('\\')) { const last = cur.lines[cur.lines.length - 1]; last[1] = last[1].slice(0, -1); continue; }
    const t = l[0];
    if (t !== ' ' && t !== '-' && t !== '+') throw new Error(`unexpected diff line ${JSON.stringify(l)}`);
    cur.lines.push([t, l.slice(1) + '\n']);
  }
  return hunks;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
function textOf(buf) {
  if (buf.includes(0)) return null;
  try { return utf8.decode(buf); } catch { return null; }
}

// Deterministic conversions of a real pair (both sides alike, so the change stays the real one).
const toCrlf = (s) => s.replace(/\n/g, '\r\n');
function indentUnit(s) {
  const counts = new Map();
  for (const l of s.split('\n')) {
    const m = /^( +)\S/.exec(l);
    if (m) counts.set(m[1].length, (counts.get(m[1].length) || 0) + 1);
  }
  return (counts.get(2) || 0) > (counts.get(4) || 0) ? 2 : 4;
}
const tabify = (unit) => (s) => s.replace(/^( +)/gm, (sp) => '\t'.repeat(Math.floor(sp.length / unit)) + ' '.repeat(sp.length % unit));
// Trailing whitespace as editors leave it, on some lines chosen by their content alone (so a line
// present on both sides of the change gets the same bytes on both): the self corpus has none.
const trailingSpaces = (s) => s.replace(/^(.*\S)(\n?)$/gm, (all, body, nl) => (hashStr(body) % 5 === 0 ? `${body} ${nl}` : all));
function convertChange(ch, fn) {
  ch.pre = fn(ch.pre);
  for (const h of ch.hunks) for (const l of h.lines) l[1] = fn(l[1]);
}

function candidates(src) {
  const rev = src.until || 'HEAD';
  const log = git(src.gitDir, 'log', '--no-merges', '--no-renames', '--format=@%H', '--name-status', '--diff-filter=AM', rev).toString();
  const out = [];
  let commit = null;
  for (const line of log.split('\n')) {
    if (line.startsWith('@')) { commit = line.slice(1); continue; }
    const m = /^([AM])\t(.+)$/.exec(line);
    if (!m || !commit) continue;
    const lang = src.lang === 'auto' ? langOf(m[2]) : (langOf(m[2]) === src.lang ? src.lang : null);
    if (!lang) continue;
    out.push({ commit, path: m[2], kind: m[1] === 'A' ? 'create' : 'modify', lang });
  }
  return out;
}

function build(src, c) {
  if (c.kind === 'create') {
    const post = textOf(git(src.gitDir, 'show', `${c.commit}:${c.path}`));
    if (post === null || post.length === 0 || post.length > MAX_CREATE_BYTES) return null;
    return { pre: null, post };
  }
  let preBuf;
  try { preBuf = git(src.gitDir, 'show', `${c.commit}^:${c.path}`); } catch { return null; }
  const postBuf = git(src.gitDir, 'show', `${c.commit}:${c.path}`);
  if (preBuf.length > MAX_BYTES || postBuf.length > MAX_BYTES || preBuf.length === 0) return null;
  const pre = textOf(preBuf), post = textOf(postBuf);
  if (pre === null || post === null || pre === post || pre.includes('\r') || post.includes('\r')) return null;
  const d = git(src.gitDir, 'diff', '--no-color', '--no-ext-diff', '--no-renames', '-U3', `${c.commit}^`, c.commit, '--', c.path).toString();
  const hunks = parseHunks(d);
  if (hunks.length < 1 || hunks.length > 4) return null;
  if (applyHunks(pre, hunks) !== post) throw new Error(`rebuild mismatch ${c.commit} ${c.path}`);
  return { pre, hunks };
}

function pick(src, quotas, r) {
  const all = candidates(src);
  // Shuffle deterministically, then take in order until each quota is met.
  for (let i = all.length - 1; i > 0; i--) { const j = Math.floor(r() * (i + 1)); [all[i], all[j]] = [all[j], all[i]]; }
  const taken = [];
  const have = {};
  const seenFile = new Set();
  for (const c of all) {
    const q = quotas[`${c.lang}:${c.kind}`];
    const k = `${c.lang}:${c.kind}`;
    if (!q || (have[k] || 0) >= q) continue;
    const key = `${c.commit}:${c.path}`;
    if (seenFile.has(key)) continue;
    const b = build(src, c);
    if (!b) continue;
    seenFile.add(key);
    have[k] = (have[k] || 0) + 1;
    taken.push({ ...c, ...b, source: src.name });
    if (Object.keys(quotas).every((x) => (have[x] || 0) >= quotas[x])) break;
  }
  return { taken, have };
}

function main() {
  const r = rng(SEED);
  let sources;
  if (isPublic) {
    const perLang = Number(opt('per-lang', '110'));
    sources = publicSources.map((s) => ({ ...s, quotas: { [`${s.lang}:modify`]: perLang, [`${s.lang}:create`]: Math.max(3, Math.round(perLang / 15)) } }));
  } else {
    const until = opt('until', SELF_UNTIL);
    const perLang = Number(opt('per-lang', '120'));
    sources = [{ name: 'mcp-edit', gitDir: execFileSync('git', ['-C', repo, 'rev-parse', '--absolute-git-dir']).toString().trim(), lang: 'auto', until,
      quotas: { 'c:modify': perLang + 40, 'js:modify': perLang, 'text:modify': Math.round(perLang / 2), 'c:create': 8, 'js:create': 6, 'text:create': 4 } }];
  }
  const changes = [];
  const meta = { seed: SEED, sources: [] };
  for (const src of sources) {
    const head = git(src.gitDir, 'rev-parse', src.until || 'HEAD').toString().trim();
    const { taken, have } = pick(src, src.quotas, r);
    meta.sources.push({ name: src.name, head, picked: have });
    process.stderr.write(`${src.name} @ ${head.slice(0, 12)}: ${JSON.stringify(have)}\n`);
    changes.push(...taken);
  }
  // Deterministic ids and variants: about one modification in eight becomes a CRLF pair (both sides
  // converted), and about one in six creations; in the self corpus (spaces only) about half of the
  // C/C++ files are re-indented with tabs on both sides, as tab-indented C is, and about one change
  // in six gets trailing spaces on some lines (both sides alike).
  changes.sort((a, b) => (a.source + a.commit + a.path).localeCompare(b.source + b.commit + b.path));
  const out = [];
  for (const ch of changes) {
    const id = `${ch.source}-${ch.lang}-${ch.commit.slice(0, 8)}-${hashStr(ch.path).toString(16).padStart(8, '0').slice(0, 6)}`;
    const h = hashStr(`${SEED}:${id}`);
    const rec = { id, source: ch.source, commit: ch.commit, path: ch.path, lang: ch.lang, kind: ch.kind, variants: [] };
    if (ch.kind === 'create') {
      rec.post = ch.post;
      if (h % 6 === 0) { rec.post = toCrlf(rec.post); rec.variants.push('crlf'); }
    } else {
      const c2 = { pre: ch.pre, hunks: ch.hunks };
      if (!isPublic && ch.lang === 'c' && (h >>> 3) % 2 === 0) { convertChange(c2, tabify(indentUnit(ch.pre))); rec.variants.push('tabs'); }
      if (!isPublic && (h >>> 5) % 6 === 0) { convertChange(c2, trailingSpaces); rec.variants.push('trailing-ws'); }
      if (h % 8 === 0) { convertChange(c2, toCrlf); rec.variants.push('crlf'); }
      rec.pre = c2.pre;
      rec.hunks = c2.hunks;
      applyHunks(rec.pre, rec.hunks); // throws if a conversion broke the pair
    }
    out.push(rec);
  }
  const json = JSON.stringify({ format: 1, generated_by: 'bench/realworld/generate.mjs', ...meta, changes: out });
  fs.mkdirSync(path.dirname(OUT), { recursive: true });
  fs.writeFileSync(OUT, zlib.gzipSync(Buffer.from(json), { level: 9 }));
  process.stderr.write(`${out.length} changes -> ${path.relative(process.cwd(), OUT)} (${fs.statSync(OUT).size} bytes)\n`);
}

main();
