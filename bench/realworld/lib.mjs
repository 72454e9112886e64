// Shared pieces of the real-history corpus: a seeded PRNG and string hash (so the generator and
// runner are deterministic), line splitting, and rebuilding a post-image from git's hunks.
import fs from 'node:fs';
import zlib from 'node:zlib';

export function hashStr(s) {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) { h ^= s.charCodeAt(i); h = Math.imul(h, 0x01000193); }
  return h >>> 0;
}

export function rng(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Lines with their terminators; the last one may have none.
export function splitKeep(s) {
  const out = [];
  let i = 0;
  while (i < s.length) {
    const nl = s.indexOf('\n', i);
    if (nl < 0) { out.push(s.slice(i)); break; }
    out.push(s.slice(i, nl + 1));
    i = nl + 1;
  }
  return out;
}

// A hunk is {os, ns, lines: [[tag, text-with-terminator]]} as git printed it (-U3).
export function hunkStart(h) {
  return h.lines.some(([t]) => t !== '+') ? h.os - 1 : h.os; // "-N,0" means after line N
}

export function applyHunks(pre, hunks) {
  const lines = splitKeep(pre);
  const out = [];
  let at = 0;
  for (const h of hunks) {
    const start = hunkStart(h);
    if (start < at) throw new Error('overlapping hunks');
    out.push(...lines.slice(at, start));
    at = start;
    for (const [t, s] of h.lines) {
      if (t === '+') { out.push(s); continue; }
      if (lines[at] !== s) throw new Error(`hunk does not fit at line ${at + 1}`);
      if (t === ' ') out.push(s);
      at++;
    }
  }
  out.push(...lines.slice(at));
  return out.join('');
}

export function loadCorpus(file) {
  return JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8'));
}
