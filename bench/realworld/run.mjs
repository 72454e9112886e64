#!/usr/bin/env node
// Runs the real-history edit corpus through mcp-edit (default and fuzzy_threshold 0.8), git apply
// (plain, --recount), GNU patch --fuzz=3 and server-filesystem's edit_file; counts CORRECT / WRONG / REFUSED.
//
// Usage: node bench/realworld/run.mjs [options]
//   --corpus=FILE        gzip'd corpus (default bench/realworld/cases.json.gz, this repository's own
//                        history); --public = bench/realworld/.cache/public.json.gz (generate.mjs --public)
//   --tools=a,b          mcp-edit, mcp-edit-fuzzy, git-apply, git-apply-recount, patch, filesystem
//   --types=a,b          only these case types        --sample[=K]  K cases per type (default 12), by hash
//   --case=ID            one case: prints the calls, and expected vs actual for each tool
//   --dump=DIR           writes each WRONG case as a standalone reproduction (file, calls, expected)
//   --fail-on-wrong      exit 1 when mcp-edit has any WRONG, or any refused call of it changed the
//                        file (the ctest sample)   --out=FILE (default results.json beside this script
//                        for a full default run; none otherwise)
//   --expect=FILE        exit 1 unless each mcp-edit tool's CORRECT count, per case type, is the one
//                        FILE records (sample-expected.json beside this script: the ctest sample's),
//                        so a server that refuses what it used to get right fails too
//   --write-expect=FILE  records this run's counts in FILE (after a change that gets more right)
//   --wrong-list=FILE    writes every WRONG case (tool, id, type, short diff) to FILE
// Environment: MCP_EDIT_BIN (default build/mcp-edit), BENCH_TMPDIR (default /dev/shm, else the system tmpdir),
// BENCH_LIST_REFUSED=1 (each refusal's case id and last reply on stderr).
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { hashStr, loadCorpus } from './lib.mjs';
import { FAMILY, TYPES, casesOf } from './forms.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '../..');
const argv = process.argv.slice(2);
const opt = (name) => {
  const a = argv.find((x) => x === `--${name}` || x.startsWith(`--${name}=`));
  if (a === undefined) return undefined;
  return a.includes('=') ? a.slice(a.indexOf('=') + 1) : true;
};
const KNOWN = ['corpus', 'public', 'tools', 'types', 'sample', 'case', 'dump', 'fail-on-wrong', 'out', 'wrong-list', 'expect', 'write-expect'];
for (const a of argv) {
  const n = a.replace(/^--/, '').split('=')[0];
  if (!a.startsWith('--') || !KNOWN.includes(n)) {
    process.stderr.write(`run.mjs: unknown argument ${a} (see the usage at the top of bench/realworld/run.mjs)\n`);
    process.exit(2);
  }
}

const ALL_TOOLS = [
  { id: 'mcp-edit', label: 'mcp-edit', families: ['edit', 'udiff', 'sr', 'codex'] },
  { id: 'mcp-edit-fuzzy', label: 'mcp-edit fuzzy 0.8', families: ['udiff', 'sr', 'codex'] },
  { id: 'git-apply', label: 'git apply', families: ['udiff'] },
  { id: 'git-apply-recount', label: 'git apply --recount', families: ['udiff'] },
  { id: 'patch', label: 'patch --fuzz=3', families: ['udiff'] },
  { id: 'filesystem', label: 'server-filesystem edit_file', families: ['edit'] },
];
const toolIds = opt('tools') ? String(opt('tools')).split(',') : ALL_TOOLS.map((t) => t.id);
for (const t of toolIds) if (!ALL_TOOLS.some((x) => x.id === t)) { console.error(`run.mjs: unknown tool ${t}`); process.exit(2); }
const TOOLS = ALL_TOOLS.filter((t) => toolIds.includes(t.id));

const corpusFile = opt('corpus') ? path.resolve(String(opt('corpus'))) : opt('public') ? path.join(here, '.cache', 'public.json.gz') : path.join(here, 'cases.json.gz');
if (!fs.existsSync(corpusFile)) {
  console.error(`run.mjs: no corpus at ${corpusFile}; build it with node bench/realworld/generate.mjs${opt('public') ? ' --public NAME=GITDIR:LANG ...' : ''}`);
  process.exit(2);
}
const corpus = loadCorpus(corpusFile);
const MCP_EDIT_SRC = process.env.MCP_EDIT_BIN || path.join(repo, 'build', 'mcp-edit');
let MCP_EDIT_BIN = MCP_EDIT_SRC;
const log = (...a) => process.stderr.write(a.join(' ') + '\n');

// ---- the cases ----------------------------------------------------------------------------------
// Each case gets its own folder under the tool's root: ROOT/<n>/<original path>.
function allCases(root) {
  const cases = [];
  let n = 0;
  for (const ch of corpus.changes) {
    for (const c of casesOf(ch, '\u0001REL\u0001', '\u0001ABS\u0001')) {
      cases.push({ ...c, change: ch });
    }
  }
  let sel = cases;
  if (opt('types')) { const ts = new Set(String(opt('types')).split(',')); sel = sel.filter((c) => ts.has(c.type)); }
  if (opt('case')) sel = sel.filter((c) => c.id === opt('case'));
  if (opt('sample')) {
    const k = opt('sample') === true ? 12 : Number(opt('sample'));
    const by = new Map();
    for (const c of sel) { if (!by.has(c.type)) by.set(c.type, []); by.get(c.type).push(c); }
    sel = [];
    for (const [, list] of by) sel.push(...list.sort((a, b) => hashStr(a.id) - hashStr(b.id) || a.id.localeCompare(b.id)).slice(0, k));
  }
  // Give each case its folder and substitute the placeholders in its calls.
  return sel.map((c) => {
    const dir = `c${String(n++).padStart(5, '0')}`;
    const rel = `${dir}/${c.change.path}`;
    const abs = path.join(root, rel);
    const fix = (v) => (typeof v === 'string' ? v.split('\u0001ABS\u0001').join(abs).split('\u0001REL\u0001').join(rel)
      : Array.isArray(v) ? v.map(fix) : v && typeof v === 'object' ? Object.fromEntries(Object.entries(v).map(([k, x]) => [k, fix(x)])) : v);
    return { ...c, rel, abs, calls: fix(c.calls) };
  });
}

function place(c) {
  fs.rmSync(path.dirname(c.abs), { recursive: true, force: true });
  fs.mkdirSync(path.dirname(c.abs), { recursive: true });
  if (c.pre !== null) fs.writeFileSync(c.abs, c.pre);
}
const readNow = (c) => (fs.existsSync(c.abs) ? fs.readFileSync(c.abs, 'utf8') : null);

// ---- mcp-edit and server-filesystem over stdio JSON-RPC ------------------------------------------
class Rpc {
  constructor(cmd, args, cwd) {
    this.proc = spawn(cmd, args, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.buf = '';
    this.next = 1;
    this.pending = new Map();
    this.stderr = '';
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (d) => {
      this.buf += d;
      let nl;
      while ((nl = this.buf.indexOf('\n')) >= 0) {
        const line = this.buf.slice(0, nl);
        this.buf = this.buf.slice(nl + 1);
        if (!line.trim()) continue;
        let m;
        try { m = JSON.parse(line); } catch { continue; }
        if (m.method && m.id !== undefined) { this.send({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'not supported by the benchmark' } }); continue; }
        const p = this.pending.get(m.id);
        if (p) { this.pending.delete(m.id); p(m); }
      }
    });
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (d) => { if (this.stderr.length < 20000) this.stderr += d; });
    this.proc.on('exit', (code) => { for (const [, p] of this.pending) p({ error: { message: `server exited ${code}: ${this.stderr.slice(-300)}` } }); this.pending.clear(); this.dead = true; });
  }
  send(m) { this.proc.stdin.write(JSON.stringify(m) + '\n'); }
  request(method, params, ms = 30000) {
    const id = this.next++;
    return new Promise((resolve) => {
      if (this.dead) { resolve({ error: { message: 'server is not running' } }); return; }
      const t = setTimeout(() => { this.pending.delete(id); resolve({ error: { message: `timeout after ${ms} ms` } }); }, ms);
      this.pending.set(id, (m) => { clearTimeout(t); resolve(m); });
      this.send({ jsonrpc: '2.0', id, method, params });
    });
  }
  async init() {
    const r = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'realworld-bench', version: '1' } });
    if (r.error) throw new Error(`initialize failed: ${r.error.message}`);
    this.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }
  close() { this.proc.stdin.end(); return new Promise((res) => { if (this.dead) res(); else this.proc.on('exit', res); }); }
}
const resultText = (r) => (r.error ? `JSON-RPC error: ${r.error.message}` : (r.result?.content || []).filter((x) => x.type === 'text').map((x) => x.text).join('\n'));
const resultOk = (r) => !r.error && r.result && r.result.isError !== true;

function fsCall(call) {
  if (call.tool === 'edit') return { name: 'edit_file', arguments: { path: call.args.file_path, edits: [{ oldText: call.args.old_string, newText: call.args.new_string }] } };
  if (call.tool === 'multiedit') return { name: 'edit_file', arguments: { path: call.args.file_path, edits: call.args.edits.map((e) => ({ oldText: e.old_string, newText: e.new_string })) } };
  return null;
}

async function serverRun(tool, cases, root) {
  let rpc;
  if (tool.id === 'filesystem') {
    const require = createRequire(import.meta.url);
    let entry;
    try { entry = path.join(path.dirname(require.resolve('@modelcontextprotocol/server-filesystem/package.json', { paths: [path.join(repo, 'bench')] })), 'dist', 'index.js'); } catch {
      log('server-filesystem is not installed (cd bench && PUPPETEER_SKIP_DOWNLOAD=1 npm ci --ignore-scripts): skipped');
      return null;
    }
    rpc = new Rpc(process.execPath, [entry, root], root);
  } else {
    rpc = new Rpc(MCP_EDIT_BIN, ['--root', root, '--approval', 'auto', '--log-level', 'off', '--no-fsync'], root);
  }
  await rpc.init();
  const out = [];
  for (const c of cases) {
    place(c);
    const texts = [];
    let ok = true;
    let ms = 0;
    let calls = 0;
    let changedByRefusal = null; // {call, before}: a refused call after which the file was not as before it
    for (const [i, call] of c.calls.entries()) {
      const before = readNow(c);
      let params;
      if (tool.id === 'filesystem') params = fsCall(call);
      else params = { name: call.tool, arguments: tool.id === 'mcp-edit-fuzzy' ? { ...call.args, fuzzy_threshold: 0.8 } : call.args };
      const t0 = performance.now();
      const r = await rpc.request('tools/call', params);
      ms += performance.now() - t0;
      calls++;
      texts.push(resultText(r));
      if (!resultOk(r)) {
        ok = false;
        if (readNow(c) !== before) changedByRefusal = { call: i, before };
        break;
      }
    }
    out.push({ c, ok, after: readNow(c), texts, ms: ms / calls, changedByRefusal });
  }
  await rpc.close();
  return out;
}

// ---- git apply and GNU patch ----------------------------------------------------------------------
function cliRun(tool, cases, root) {
  const out = [];
  for (const c of cases) {
    place(c);
    const diff = c.calls[0].args.diff;
    const [cmd, args] = tool.id === 'patch'
      ? ['patch', ['-p1', '--fuzz=3', '--batch', '--forward', '--no-backup-if-mismatch', '--reject-file=-']]
      : ['git', ['apply', ...(tool.id === 'git-apply-recount' ? ['--recount'] : [])]];
    const t0 = performance.now();
    const r = spawnSync(cmd, args, { cwd: root, input: diff, encoding: 'utf8', env: { ...process.env, GIT_CEILING_DIRECTORIES: path.dirname(root) } });
    const ms = performance.now() - t0;
    const after = readNow(c);
    const changedByRefusal = r.status !== 0 && after !== c.pre ? { call: 0, before: c.pre } : null;
    out.push({ c, ok: r.status === 0, after, texts: [`exit ${r.status}: ${(r.stdout + r.stderr).trim().slice(0, 600)}`], ms, changedByRefusal });
  }
  return out;
}

// ---- verdicts and reports -------------------------------------------------------------------------
const vis = (s) => JSON.stringify(s).slice(1, -1);
function shortDiff(expected, actual) {
  if (actual === null) return '  (the file does not exist)';
  const e = expected.split('\n'), a = actual.split('\n');
  let p = 0;
  while (p < e.length && p < a.length && e[p] === a[p]) p++;
  let s = 0;
  while (s < e.length - p && s < a.length - p && e[e.length - 1 - s] === a[a.length - 1 - s]) s++;
  const lines = [`  @@ line ${p + 1} @@`];
  const from = Math.max(0, p - 1);
  if (from < p) lines.push(`    ${vis(e[from])}`);
  const ex = e.slice(p, e.length - s), ac = a.slice(p, a.length - s);
  if (ex.length === ac.length) {
    // Same line count: only the lines that differ, each with its line number.
    const diffs = ex.map((l, i) => i).filter((i) => ex[i] !== ac[i]);
    for (const i of diffs.slice(0, 6)) lines.push(`  - ${vis(ex[i])}`, `  + ${vis(ac[i])}`, ...(diffs.length > 1 ? [`    (line ${p + i + 1})`] : []));
    if (diffs.length > 6) lines.push(`    ... ${diffs.length - 6} more differing lines`);
    return lines.join('\n');
  }
  for (const l of ex.slice(0, 8)) lines.push(`  - ${vis(l)}`);
  if (ex.length > 8) lines.push(`  - ... ${ex.length - 8} more expected lines`);
  for (const l of ac.slice(0, 8)) lines.push(`  + ${vis(l)}`);
  if (ac.length > 8) lines.push(`  + ... ${ac.length - 8} more actual lines`);
  return lines.join('\n');
}

function verdict(res) {
  if (res.ok) return res.after === res.c.expected ? 'C' : 'W';
  return 'R';
}

function dumpCase(dir, tool, res) {
  const d = path.join(dir, res.c.id.replace(/[^A-Za-z0-9._-]+/g, '_'), tool.id);
  fs.mkdirSync(d, { recursive: true });
  const rel = res.c.rel;
  const relCalls = JSON.parse(JSON.stringify(res.c.calls).split(path.dirname(res.c.abs).replace(/\\/g, '\\\\') + '/').join('').split(path.dirname(rel) + '/').join(''));
  if (res.c.pre !== null) fs.writeFileSync(path.join(d, 'before'), res.c.pre);
  fs.writeFileSync(path.join(d, 'expected'), res.c.expected);
  if (res.after !== null) fs.writeFileSync(path.join(d, 'actual'), res.after);
  fs.writeFileSync(path.join(d, 'calls.json'), JSON.stringify(relCalls, null, 1));
  const base = path.basename(rel);
  let jsonl = JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'repro', version: '1' } } }) + '\n';
  jsonl += JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n';
  relCalls.forEach((call, i) => {
    const a = { ...call.args };
    if (tool.id === 'mcp-edit-fuzzy' && call.tool === 'apply_diff') a.fuzzy_threshold = 0.8;
    jsonl += JSON.stringify({ jsonrpc: '2.0', id: i + 1, method: 'tools/call', params: { name: call.tool, arguments: a } }) + '\n';
  });
  fs.writeFileSync(path.join(d, 'calls.jsonl'), jsonl);
  fs.writeFileSync(path.join(d, 'README'), `${res.c.id} (${res.c.type}) with ${tool.label}: the tool said success, the bytes differ from expected.\n` +
    `Reproduce: mkdir t && ${res.c.pre !== null ? `cp before t/${base}` : '(no file: a creation)'} && build/mcp-edit --root t --approval auto --log-level off < calls.jsonl; cmp t/${base} expected\n` +
    `(calls name the file as ${base}; the diff headers and file_path are relative to the root.)\n`);
  return d;
}

async function main() {
  // Thousands of small folders: on tmpfs when there is one (removing them from a disk under load
  // took minutes), else the system's temporary folder; BENCH_TMPDIR overrides.
  const base = process.env.BENCH_TMPDIR || (fs.existsSync('/dev/shm') ? '/dev/shm' : os.tmpdir());
  const TMP = fs.mkdtempSync(path.join(base, 'mcp-edit-realworld-'));
  // The commit the run starts from (others may commit while it runs).
  const startCommit = spawnSync('git', ['-C', repo, 'rev-parse', 'HEAD'], { encoding: 'utf8' }).stdout.trim();
  // A copy, so a rebuild during the run cannot swap the binary mid-way.
  if (TOOLS.some((t) => t.id.startsWith('mcp-edit'))) {
    if (!fs.existsSync(MCP_EDIT_SRC)) { console.error(`run.mjs: no mcp-edit at ${MCP_EDIT_SRC} (build it, or set MCP_EDIT_BIN)`); process.exit(2); }
    MCP_EDIT_BIN = path.join(TMP, 'mcp-edit-binary');
    fs.copyFileSync(MCP_EDIT_SRC, MCP_EDIT_BIN);
    fs.chmodSync(MCP_EDIT_BIN, 0o755);
  }
  const t0 = performance.now();
  const results = {};   // tool -> type -> {C,W,R,dirty,ms:[]}
  const wrongs = [];
  const changedByRefusal = []; // {tool, r}: a refused call that still changed the file
  const single = opt('case');
  let caseCount = 0;
  for (const tool of TOOLS) {
    const root = path.join(TMP, tool.id);
    fs.mkdirSync(root, { recursive: true });
    const cases = allCases(root).filter((c) => tool.families.includes(FAMILY[c.type]));
    caseCount = Math.max(caseCount, cases.length);
    if (single && cases.length === 0) continue;
    const tt = performance.now();
    const res = ['git-apply', 'git-apply-recount', 'patch'].includes(tool.id) ? cliRun(tool, cases, root) : await serverRun(tool, cases, root);
    if (!res) continue;
    const per = (results[tool.id] = {});
    for (const r of res) {
      const v = verdict(r);
      if (v === 'R' && process.env.BENCH_LIST_REFUSED) console.error(`REFUSED ${tool.id} ${r.c.id} ${String((r.texts || []).slice(-1).join(' // ')).slice(0, 300).replace(/\n/g, ' | ')}`);
      const cell = (per[r.c.type] ||= { C: 0, W: 0, R: 0, dirty: 0, ms: [] });
      cell[v]++;
      cell.ms.push(r.ms);
      if (v === 'R' && r.after !== r.c.pre) cell.dirty++;
      if (v === 'W') wrongs.push({ tool, r });
      if (r.changedByRefusal) changedByRefusal.push({ tool, r });
      if (single) {
        console.log(`## ${tool.label}: ${v === 'C' ? 'CORRECT' : v === 'W' ? 'WRONG' : 'REFUSED'} (${r.ms.toFixed(1)} ms)`);
        console.log(r.texts.map((t) => t.split('\n').slice(0, 12).join('\n')).join('\n---\n'));
        if (r.after !== r.c.expected) console.log(`expected vs actual:\n${shortDiff(r.c.expected, r.after)}`);
        console.log(`expected bytes: ${JSON.stringify(r.c.expected).slice(0, 3000)}`);
        console.log(`actual bytes:   ${JSON.stringify(r.after).slice(0, 3000)}\n`);
      }
    }
    fs.rmSync(root, { recursive: true, force: true });
    log(`${tool.label}: ${res.length} cases in ${((performance.now() - tt) / 1000).toFixed(1)} s`);
  }
  if (single) {
    const c = allCases('/ROOT')[0];
    if (!c) { console.error(`run.mjs: no case ${single}`); process.exit(2); }
    console.log(`## the calls (file ${c.rel} under the root)\n${JSON.stringify(c.calls, null, 1)}`);
  }

  // WRONG cases: id, tool, short diff (and a reproduction folder with --dump).
  const wrongLines = [];
  for (const { tool, r } of wrongs) {
    const where = opt('dump') ? ` -> ${dumpCase(path.resolve(String(opt('dump'))), tool, r)}` : '';
    const line = `WRONG ${tool.id} ${r.c.id} (${r.c.type})${where}`;
    wrongLines.push(`${line}\n${shortDiff(r.c.expected, r.after)}\n  tool said: ${r.texts[r.texts.length - 1].split('\n')[0].slice(0, 200)}`);
  }
  if (wrongLines.length) process.stdout.write(wrongLines.join('\n') + '\n\n');
  // Refused calls that changed the file anyway: a refusal must leave the file as it was.
  for (const { tool, r } of changedByRefusal) {
    const { call, before } = r.changedByRefusal;
    process.stdout.write(`REFUSED BUT CHANGED ${tool.id} ${r.c.id} (${r.c.type}): call ${call + 1} of ${r.c.calls.length} was refused, ` +
      `and the file is not as it was before it:\n${before === null ? '  (there was no file)' : shortDiff(before, r.after)}\n` +
      `  tool said: ${r.texts[r.texts.length - 1].split('\n')[0].slice(0, 200)}\n\n`);
  }
  if (opt('wrong-list')) fs.writeFileSync(String(opt('wrong-list')), wrongLines.join('\n') + (wrongLines.length ? '\n' : ''));

  // The table.
  const median = (xs) => { if (!xs.length) return null; const s = [...xs].sort((a, b) => a - b); return s[Math.floor((s.length - 1) / 2)]; };
  const used = TOOLS.filter((t) => results[t.id]);
  const rows = [];
  rows.push(`| case type | cases | ${used.map((t) => t.label).join(' | ')} |`);
  rows.push(`|---|---:|${used.map(() => '---:').join('|')}|`);
  const total = Object.fromEntries(used.map((t) => [t.id, { C: 0, W: 0, R: 0, dirty: 0, ms: [] }]));
  for (const [type] of TYPES) {
    const counts = used.map((t) => results[t.id][type]);
    const n = Math.max(0, ...counts.map((x) => (x ? x.C + x.W + x.R : 0)));
    if (!n) continue;
    rows.push(`| ${type} | ${n} | ${used.map((t) => {
      const x = results[t.id][type];
      if (!x) return '—';
      for (const k of ['C', 'W', 'R', 'dirty']) total[t.id][k] += x[k];
      total[t.id].ms.push(...x.ms);
      return `${x.C}/${x.W ? `**${x.W}**` : 0}/${x.R}${x.dirty ? `†${x.dirty}` : ''}`;
    }).join(' | ')} |`);
  }
  rows.push(`| **all** | ${caseCount} | ${used.map((t) => { const x = total[t.id]; return `${x.C}/${x.W ? `**${x.W}**` : 0}/${x.R}${x.dirty ? `†${x.dirty}` : ''}`; }).join(' | ')} |`);
  rows.push(`| median ms per call | | ${used.map((t) => { const m = median(total[t.id].ms); return m === null ? '—' : m.toFixed(2); }).join(' | ')} |`);
  const table = rows.join('\n');
  const summary = `cells: CORRECT/WRONG/REFUSED (WRONG = said success, bytes differ from the real post-commit file; †N = refusals that still changed the file)`;
  console.log(`${table}\n\n${summary}\ncorpus: ${path.relative(repo, corpusFile)} (${corpus.changes.length} changes; ${corpus.sources.map((s) => `${s.name}@${s.head.slice(0, 12)}`).join(', ')}); ${((performance.now() - t0) / 1000).toFixed(1)} s`);

  const outFile = opt('out') ? String(opt('out')) : (!opt('sample') && !opt('case') && !opt('types') && !opt('tools') && !opt('corpus') && !opt('public')) ? path.join(here, 'results.json') : null;
  if (outFile) {
    const json = {
      measured_on: startCommit, date: new Date().toISOString().slice(0, 10), corpus: path.relative(repo, corpusFile), sources: corpus.sources,
      tools: used.map((t) => t.label),
      types: Object.fromEntries(TYPES.map(([type]) => [type, Object.fromEntries(used.filter((t) => results[t.id][type]).map((t) => { const x = results[t.id][type]; return [t.id, { correct: x.C, wrong: x.W, refused: x.R, refused_but_changed: x.dirty, median_ms: Number((median(x.ms) ?? 0).toFixed(3)) }]; }))]).filter(([, v]) => Object.keys(v).length)),
      median_ms_per_call: Object.fromEntries(used.map((t) => [t.id, Number((median(total[t.id].ms) ?? 0).toFixed(3))])),
      wrong: wrongs.map(({ tool, r }) => ({ tool: tool.id, case: r.c.id, type: r.c.type })),
    };
    fs.writeFileSync(outFile, JSON.stringify(json, null, 1) + '\n');
  }
  fs.rmSync(TMP, { recursive: true, force: true });
  let failed = false;
  const ours = used.filter((t) => t.id.startsWith('mcp-edit'));
  if (opt('write-expect')) writeExpected(String(opt('write-expect')), ours, results);
  if (opt('expect')) failed = !checkExpected(String(opt('expect')), ours, results) || failed;
  const nWrong = wrongs.filter(({ tool }) => tool.id.startsWith('mcp-edit')).length;
  const nChanged = changedByRefusal.filter(({ tool }) => tool.id.startsWith('mcp-edit')).length;
  if (opt('fail-on-wrong')) {
    console.log(`${caseCount} cases: ${nWrong} WRONG for mcp-edit, ${nChanged} refused calls of mcp-edit that changed the file`);
    if (nWrong || nChanged) failed = true;
  }
  if (failed) process.exit(1);
}

// ---- the expected counts (--expect, --write-expect) ------------------------------------------------
// What a run's counts depend on besides the server: the corpus, the sample, the case types.
const runShape = () => ({ corpus: path.relative(repo, corpusFile), sample: opt('sample') === true ? 12 : opt('sample') ? Number(opt('sample')) : null,
  types: opt('types') ? String(opt('types')) : null });
const rerun = (file) => `node bench/realworld/run.mjs ${argv.filter((a) => !/^--(expect|write-expect|fail-on-wrong|out)(=|$)/.test(a)).join(' ')} ` +
  `--write-expect=${path.relative(repo, path.resolve(file))}   (from the top of the repository, MCP_EDIT_BIN the new build)`;

function writeExpected(file, tools, results) {
  const counts = Object.fromEntries(tools.map((t) => [t.id, Object.fromEntries(TYPES.filter(([type]) => results[t.id][type])
    .map(([type]) => { const x = results[t.id][type]; return [type, { cases: x.C + x.W + x.R, correct: x.C }]; }))]));
  // One line per case type, so a change of the counts reads as a short diff.
  const head = JSON.stringify({
    about: 'CORRECT counts of mcp-edit on this sample of the real-history corpus, per tool and case type; run.mjs --expect fails when a run differs. Written by run.mjs --write-expect.',
    ...runShape(),
  }, null, 1).slice(0, -2);
  const body = Object.entries(counts).map(([tool, types]) => `  ${JSON.stringify(tool)}: {\n${Object.entries(types)
    .map(([type, x]) => `   ${JSON.stringify(type)}: ${JSON.stringify(x)}`).join(',\n')}\n  }`).join(',\n');
  fs.writeFileSync(file, `${head},\n "counts": {\n${body}\n }\n}\n`);
  console.log(`wrote the counts to ${file}`);
}

/** Compares the run with the counts `file` records; prints each difference; true when there is none. */
function checkExpected(file, tools, results) {
  const expected = JSON.parse(fs.readFileSync(file, 'utf8'));
  const shape = runShape();
  const diffs = [];
  for (const k of Object.keys(shape)) {
    if (expected[k] !== shape[k]) diffs.push(`the counts are for ${k} ${JSON.stringify(expected[k])}, this run has ${JSON.stringify(shape[k])}`);
  }
  for (const t of tools) {
    const want = expected.counts?.[t.id];
    if (!want) { diffs.push(`${t.id}: ${file} has no counts for this tool`); continue; }
    for (const [type] of TYPES) {
      const x = results[t.id][type];
      const got = x ? { cases: x.C + x.W + x.R, correct: x.C } : undefined;
      const w = want[type];
      if (!got && !w) continue;
      if (!got || !w) { diffs.push(`${t.id} ${type}: ${got ? `${got.cases} cases, none expected` : `no cases, expected ${w.cases}`}`); continue; }
      if (got.cases !== w.cases) diffs.push(`${t.id} ${type}: ${got.cases} cases, expected ${w.cases} (the corpus or the sample changed)`);
      else if (got.correct !== w.correct) {
        diffs.push(`${t.id} ${type}: ${got.correct} of ${got.cases} CORRECT, expected ${w.correct} (${got.correct < w.correct ? 'fewer: refused or wrong where it used to be right' : 'more'})`);
      }
    }
  }
  if (diffs.length === 0) {
    console.log(`CORRECT counts as ${path.relative(repo, path.resolve(file))} expects`);
    return true;
  }
  console.log(`CORRECT counts differ from ${file}:\n  ${diffs.join('\n  ')}\n` +
    'A regression (fewer CORRECT) is to be fixed. If the change is an improvement (more CORRECT and no WRONG), or the corpus ' +
    `was regenerated on purpose, record the new counts and commit the file:\n  ${rerun(file)}`);
  return false;
}

main().catch((e) => { console.error(e.stack || String(e)); process.exit(1); });
