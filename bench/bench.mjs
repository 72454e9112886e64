#!/usr/bin/env node
// mcp-edit benchmark driver: starts each server over stdio on a fresh temporary root, speaks raw
// newline-delimited JSON-RPC to it, maps every workload onto the server's own edit tool, checks
// every result on disk (a wrong result is reported as wrong, never timed), prints a markdown
// table and writes bench/results.json. Usage: node bench/bench.mjs [--quick] [--no-peers]
// Environment: MCP_EDIT_BIN (default build/mcp-edit), BENCH_TMPDIR (default the system tmpdir),
// BENCH_OUT (default bench/results.json).
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const argv = new Set(process.argv.slice(2));
// --only=w1,w2 runs just those workloads (names as in results.json: cold_start, sequential_edits,
// big_50mb, ...), for working on one of them; the tables then show only what was run.
let ONLY = null;
for (const a of argv) {
  if (a.startsWith('--only=')) { ONLY = new Set(a.slice(7).split(',')); argv.delete(a); }
}
for (const a of argv) {
  if (!['--quick', '--no-peers'].includes(a)) {
    process.stderr.write(`bench.mjs: unknown argument ${a}\nusage: node bench/bench.mjs [--quick] [--no-peers] [--only=workload,...]\n`);
    process.exit(2);
  }
}
const QUICK = argv.has('--quick');
const NO_PEERS = argv.has('--no-peers');

// ---- sizes and limits ---------------------------------------------------------------------------
const CFG = QUICK
  ? { coldRuns: 5, seqEdits: 100, seqLines: 1000, seqBlock: 50, seqRounds: 1, seqCapMs: 5_000, bigSizesMB: [1, 10], bigRuns: 1, manyFiles: 100, sameFile: 200,
      opTimeoutMs: 10_000, bigTimeoutMs: 10_000, batchTimeoutMs: 10_000, checkEdits: 100, mergeMB: 10, writeMergeMB: 1, patchChanges: 500, legacyMB: 50 }
  : { coldRuns: 20, seqEdits: 500, seqLines: 1000, seqBlock: 50, seqRounds: 5, seqCapMs: 30_000, bigSizesMB: [1, 10, 50], bigRuns: 5, manyFiles: 500, sameFile: 200,
      opTimeoutMs: 10_000, bigTimeoutMs: 30_000, batchTimeoutMs: 30_000, checkEdits: 100, mergeMB: 10, writeMergeMB: 1, patchChanges: 500, legacyMB: 50 };
const INIT_TIMEOUT_MS = 20_000;
// A peer is given up on for the rest of the run when its total time passes this (keeps runs bounded).
const SERVER_BUDGET_MS = QUICK ? 45_000 : 150_000;
const PROTOCOL_VERSION = '2025-11-25';

const TMP_BASE = fs.mkdtempSync(path.join(process.env.BENCH_TMPDIR || os.tmpdir(), 'mcp-edit-bench-'));
const OUT = process.env.BENCH_OUT || path.join(here, 'results.json');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');
// The servers run with pyenv's shim folders left out of PATH. Desktop Commander runs
// `python3 --version` (and other probes) synchronously for every telemetry event it builds, even
// with telemetry off; through a pyenv shim each such probe costs ~100 ms instead of ~7 ms, which
// would measure this machine's shell set-up rather than the server. mcp-edit runs no programs.
const SERVER_PATH = (process.env.PATH || '').split(':').filter((d) => d && !d.includes('/.pyenv/')).join(':');

// ---- servers -----------------------------------------------------------------------------------
const MCP_EDIT_SRC = process.env.MCP_EDIT_BIN || path.join(repo, 'build', 'mcp-edit');
// The binary is copied once at the start so a rebuild during the run cannot swap it mid-way.
const MCP_EDIT_BIN = path.join(TMP_BASE, 'mcp-edit');
const require = createRequire(import.meta.url);
function pkgInfo(name) {
  try {
    const pj = require.resolve(`${name}/package.json`, { paths: [here] });
    const meta = JSON.parse(fs.readFileSync(pj, 'utf8'));
    return { dir: path.dirname(pj), version: meta.version };
  } catch {
    return null;
  }
}

const textOf = (r) => (r && Array.isArray(r.content) ? r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n') : '');

// A server under test: how to start it and how to ask it for one edit. Unless a spec says
// otherwise, it is a Node program that does not fsync, needs no environment of its own, and an
// edit succeeded when the result is not an error.
function serverSpec(spec) {
  return {
    fsyncs: false,
    command: () => process.execPath,
    env: () => ({}),
    ok: (r) => r && r.isError !== true,
    ...spec,
  };
}

function mcpEditSpec(noFsync) {
  return serverSpec({
    id: noFsync ? 'mcp-edit-nofsync' : 'mcp-edit',
    label: noFsync ? 'mcp-edit --no-fsync' : 'mcp-edit',
    fsyncs: !noFsync,
    tool: 'edit',
    command: () => MCP_EDIT_BIN,
    args: (root) => ['--root', root, '--approval', 'auto', '--log-level', 'off', ...(noFsync ? ['--no-fsync'] : [])],
    editArgs: (p, o, n) => ({ file_path: p, old_string: o, new_string: n }),
  });
}

function filesystemSpec(info) {
  const entry = path.join(info.dir, 'dist', 'index.js');
  return serverSpec({
    id: 'filesystem',
    label: `server-filesystem ${info.version}`,
    version: info.version,
    tool: 'edit_file',
    args: (root) => [entry, root],
    editArgs: (p, o, n) => ({ path: p, edits: [{ oldText: o, newText: n }] }),
  });
}

// Desktop Commander keeps its config in $HOME/.claude-server-commander/config.json. Each run gets a
// scratch HOME whose config allows only the root and turns telemetry off (also turned off by the
// DESKTOP_COMMANDER_DISABLE_TELEMETRY kill switch); its feature-flag fetch is pointed at a closed
// loopback port; a stub in its private puppeteer cache stops the background Chrome download it
// starts after initialization; --no-onboarding skips the welcome flow.
function desktopCommanderSpec(info) {
  const entry = path.join(info.dir, 'dist', 'index.js');
  return serverSpec({
    id: 'desktop-commander',
    label: `desktop-commander ${info.version}`,
    version: info.version,
    tool: 'edit_block',
    args: () => [entry, '--no-onboarding'],
    env: (root) => {
      const home = fs.mkdtempSync(path.join(TMP_BASE, 'dc-home-'));
      const cfgDir = path.join(home, '.claude-server-commander');
      fs.mkdirSync(path.join(cfgDir, 'puppeteer-cache', 'chrome', 'linux-0-bench-stub', 'chrome-linux64'), { recursive: true });
      fs.writeFileSync(path.join(cfgDir, 'puppeteer-cache', 'chrome', 'linux-0-bench-stub', 'chrome-linux64', 'chrome'), '');
      fs.writeFileSync(path.join(cfgDir, 'config.json'), JSON.stringify({
        blockedCommands: [],
        defaultShell: '/bin/sh',
        allowedDirectories: [root],
        telemetryEnabled: false,
        fileWriteLineLimit: 50,
        fileReadLineLimit: 1000,
        pendingWelcomeOnboarding: false,
        welcomeOnboardingEligible: false,
        sawOnboardingPage: true,
      }, null, 2));
      return {
        HOME: home,
        XDG_CONFIG_HOME: path.join(home, '.config'),
        XDG_CACHE_HOME: path.join(home, '.cache'),
        DESKTOP_COMMANDER_DISABLE_TELEMETRY: '1',
        DC_FLAG_URL: 'http://127.0.0.1:9/flags.json',
        PUPPETEER_SKIP_DOWNLOAD: '1',
      };
    },
    editArgs: (p, o, n) => ({ file_path: p, old_string: o, new_string: n, expected_replacements: 1 }),
    // Desktop Commander answers "not found" / "expected 1 occurrence but found N" / fuzzy
    // suggestions as ordinary results without isError; only its exact-replace path starts so.
    ok: (r) => r && r.isError !== true && /^\[Reading /.test(textOf(r)),
  });
}

// ---- a raw JSON-RPC client over stdio ----------------------------------------------------------
class TimeoutError extends Error {}

class Server {
  constructor(spec, root) {
    this.spec = spec;
    this.root = root;
    this.nextId = 1;
    this.pending = new Map();
    this.buf = '';
    this.stderr = '';
    this.nonJsonLines = 0;
    this.exited = null;
    this.serverRequests = 0;
    this.errorLogs = [];
    this.answer = null;  // (request) => result: answers server-to-client requests (see initialize's capabilities)
  }

  start() {
    const env = { ...process.env, PATH: SERVER_PATH, ...this.spec.env(this.root) };
    this.t0 = performance.now();
    this.proc = spawn(this.spec.command(), this.spec.args(this.root), { cwd: this.root, env, stdio: ['pipe', 'pipe', 'pipe'] });
    this.pid = this.proc.pid;
    this.proc.stdout.setEncoding('utf8');
    this.proc.stdout.on('data', (d) => this.onData(d));
    this.proc.stderr.setEncoding('utf8');
    this.proc.stderr.on('data', (d) => { if (this.stderr.length < 20_000) this.stderr += d; });
    this.proc.stdin.on('error', () => {});
    this.proc.on('error', (e) => this.onExit(`spawn error: ${e.message}`));
    this.proc.on('exit', (code, sig) => this.onExit(`exited (${sig || code})`));
    return this;
  }

  onExit(why) {
    if (this.exited) return;
    this.exited = why;
    for (const [, p] of this.pending) p.reject(new Error(`server ${why}; stderr: ${this.stderr.slice(-400).trim()}`));
    this.pending.clear();
  }

  onData(d) {
    this.buf += d;
    let nl;
    while ((nl = this.buf.indexOf('\n')) >= 0) {
      const line = this.buf.slice(0, nl);
      this.buf = this.buf.slice(nl + 1);
      if (line.trim()) this.onLine(line);
    }
  }

  onLine(line) {
    let msg;
    try {
      msg = JSON.parse(line);
    } catch {
      this.nonJsonLines++;
      return;
    }
    if (Array.isArray(msg)) { for (const m of msg) this.onMessage(m); return; }
    this.onMessage(msg);
  }

  onMessage(msg) {
    if (msg.method !== undefined) {
      if (msg.method === 'notifications/message' && ['error', 'critical', 'alert', 'emergency'].includes(msg.params?.level) && this.errorLogs.length < 5) {
        const d = msg.params.data;
        this.errorLogs.push(String(typeof d === 'string' ? d : JSON.stringify(d)).slice(0, 200));
      }
      // A server-to-client request (roots/list, elicitation…): answered by this.answer when the
      // workload declared the capability, else refused (this client offers none by default).
      if (msg.id !== undefined) {
        this.serverRequests++;
        const result = this.answer ? this.answer(msg) : undefined;
        if (result !== undefined) this.write({ jsonrpc: '2.0', id: msg.id, result });
        else this.write({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
      }
      return;
    }
    const p = this.pending.get(msg.id);
    if (!p) return;
    this.pending.delete(msg.id);
    p.resolve(msg);
  }

  write(obj) {
    this.proc.stdin.write(JSON.stringify(obj) + '\n');
  }

  // Builds a request and its reply promise without sending it (see sendAll).
  prepare(method, params) {
    const id = this.nextId++;
    const line = JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n';
    const promise = new Promise((resolve, reject) => this.pending.set(id, { resolve, reject }));
    return { id, line, promise };
  }

  // Writes every prepared request in one go (all in flight before any reply is read), then waits.
  async sendAll(prepared, timeoutMs) {
    if (this.exited) throw new Error(`server ${this.exited}`);
    this.proc.stdin.write(prepared.map((p) => p.line).join(''));
    return withTimeout(Promise.all(prepared.map((p) => p.promise)), timeoutMs);
  }

  request(method, params, timeoutMs) {
    const p = this.prepare(method, params);
    if (this.exited) return Promise.reject(new Error(`server ${this.exited}`));
    this.proc.stdin.write(p.line);
    return timeoutMs === null ? p.promise : withTimeout(p.promise, timeoutMs);
  }

  // One timer for a whole run of requests (instead of one per request, whose setup costs the
  // driver more than a fast server's reply): when it fires, whatever is pending fails as a timeout.
  watchdog(ms) {
    const t = setTimeout(() => {
      for (const [, p] of this.pending) p.reject(new TimeoutError(`timeout: no reply within the run's ${ms} ms`));
      this.pending.clear();
    }, ms);
    return () => clearTimeout(t);
  }

  notify(method, params) {
    this.write({ jsonrpc: '2.0', method, ...(params ? { params } : {}) });
  }

  async initialize(timeoutMs = INIT_TIMEOUT_MS, capabilities = {}) {
    const reply = await this.request('initialize', {
      protocolVersion: PROTOCOL_VERSION,
      capabilities,
      clientInfo: { name: 'mcp-edit-bench', version: '1.0.0' },
    }, timeoutMs);
    if (reply.error) throw new Error(`initialize failed: ${JSON.stringify(reply.error)}`);
    this.initReply = reply.result;
    this.notify('notifications/initialized');
    return reply.result;
  }

  async edit(file, oldStr, newStr, timeoutMs) {
    const reply = await this.request('tools/call', { name: this.spec.tool, arguments: this.spec.editArgs(file, oldStr, newStr) }, timeoutMs);
    return this.judge(reply);
  }

  prepareEdit(file, oldStr, newStr) {
    return this.prepare('tools/call', { name: this.spec.tool, arguments: this.spec.editArgs(file, oldStr, newStr) });
  }

  judge(reply) {
    if (reply.error) return { ok: false, why: `JSON-RPC error ${reply.error.code}: ${reply.error.message}` };
    const ok = this.spec.ok(reply.result);
    return { ok, why: ok ? '' : textOf(reply.result).slice(0, 300) };
  }

  procStatus() {
    try {
      const s = fs.readFileSync(`/proc/${this.pid}/status`, 'utf8');
      const kb = (k) => { const m = s.match(new RegExp(`^${k}:\\s+(\\d+) kB`, 'm')); return m ? Number(m[1]) : null; };
      return { rssKB: kb('VmRSS'), hwmKB: kb('VmHWM') };
    } catch {
      return { rssKB: null, hwmKB: null };
    }
  }

  async stop() {
    if (!this.proc || this.exited) return;
    const done = new Promise((r) => this.proc.once('exit', r));
    try { this.proc.stdin.end(); } catch {}
    const t = setTimeout(() => { try { this.proc.kill('SIGTERM'); } catch {} }, 2000);
    const k = setTimeout(() => { try { this.proc.kill('SIGKILL'); } catch {} }, 4000);
    await done;
    clearTimeout(t);
    clearTimeout(k);
  }

  kill() {
    if (!this.proc || this.exited) return Promise.resolve();
    const done = new Promise((r) => this.proc.once('exit', r));
    try { this.proc.kill('SIGKILL'); } catch {}
    return done;
  }
}

function withTimeout(promise, ms) {
  let t;
  return Promise.race([
    promise,
    new Promise((_, rej) => { t = setTimeout(() => rej(new TimeoutError(`timeout after ${ms} ms`)), ms); }),
  ]).finally(() => clearTimeout(t));
}

// ---- helpers -----------------------------------------------------------------------------------
let rootCounter = 0;
function freshRoot(spec, tag) {
  const dir = path.join(TMP_BASE, `${spec.id}-${tag}-${rootCounter++}`);
  fs.mkdirSync(dir);
  return fs.realpathSync(dir);
}

function writeSynced(file, data) {
  const fd = fs.openSync(file, 'w');
  try {
    fs.writeSync(fd, data);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}

function fsyncDir(dir) {
  const fd = fs.openSync(dir, 'r');
  try { fs.fsyncSync(fd); } finally { fs.closeSync(fd); }
}

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const n = s.length; return n ? (n % 2 ? s[(n - 1) >> 1] : (s[n / 2 - 1] + s[n / 2]) / 2) : NaN; };
const round = (x, d = 1) => (x == null || Number.isNaN(x) ? x : Math.round(x * 10 ** d) / 10 ** d);
const pad = (n, w) => String(n).padStart(w, '0');
const MiB = (kb) => (kb == null ? null : kb / 1024);

async function withServer(spec, root, fn, capabilities = {}) {
  const s = new Server(spec, root).start();
  try {
    await s.initialize(INIT_TIMEOUT_MS, capabilities);
    return await fn(s);
  } finally {
    if (s.timedOut) await s.kill(); else await s.stop();
  }
}

// Runs a workload body; failures become a result object instead of an exception.
async function guarded(fn) {
  try {
    return await fn();
  } catch (e) {
    if (e instanceof TimeoutError) return { status: 'timeout', detail: e.message };
    return { status: 'error', detail: String(e && e.message ? e.message : e).slice(0, 500) };
  }
}

// ---- workloads ---------------------------------------------------------------------------------
async function coldStart(spec) {
  const root = freshRoot(spec, 'cold');
  const times = [];
  for (let i = 0; i < CFG.coldRuns; i++) {
    const s = new Server(spec, root).start();
    try {
      await s.initialize();
      times.push(performance.now() - s.t0);
    } catch (e) {
      await s.kill();
      throw e;
    }
    await s.stop();
  }
  return { status: 'ok', runs: times.length, median_ms: median(times), min_ms: Math.min(...times), max_ms: Math.max(...times) };
}

async function probe(spec) {
  const root = freshRoot(spec, 'probe');
  return withServer(spec, root, async (s) => {
    const list = await s.request('tools/list', {}, CFG.opTimeoutMs);
    const names = (list.result?.tools || []).map((t) => t.name);
    await new Promise((r) => setTimeout(r, 500)); // let start-up work settle before sampling RSS
    const st = s.procStatus();
    return {
      status: names.includes(spec.tool) ? 'ok' : 'error',
      detail: names.includes(spec.tool) ? undefined : `tool ${spec.tool} not in tools/list (${names.join(', ')})`,
      server_info: s.initReply?.serverInfo,
      protocol_version: s.initReply?.protocolVersion,
      tools: names,
      error_logs: s.errorLogs,
      idle_rss_mib: MiB(st.rssKB),
    };
  });
}

// The file of the sequential rounds: CFG.seqLines lines (the edits change the first seqEdits).
function seqFile(n) {
  let s = '';
  for (let i = 0; i < n; i++) s += `    item_${pad(i, 4)} = compute("alpha", ${i}); // untouched\n`;
  return s;
}

// One edit done directly from Node, the least an atomic edit does: read, change the first `oldB`
// to `newB`, write a temp file beside, (fsync it), rename it over, (fsync the folder).
function floorEdit(file, oldB, newB, fsync) {
  const buf = fs.readFileSync(file);
  const at = buf.indexOf(oldB);
  if (at < 0) throw new Error(`floor: ${oldB} not found in ${file}`);
  const out = Buffer.concat([buf.subarray(0, at), newB, buf.subarray(at + oldB.length)]);
  const tmp = path.join(path.dirname(file), `.${path.basename(file)}.tmp`);
  const fd = fs.openSync(tmp, 'w');
  fs.writeSync(fd, out);
  if (fsync) fs.fsyncSync(fd);
  fs.closeSync(fd);
  fs.renameSync(tmp, file);
  if (fsync) fsyncDir(path.dirname(file));
}

// The floor of a round: the same edits of a file of its own done directly from Node: read, change,
// write a temp file, (fsync it), rename over, (fsync the directory). run(from, to) does edits
// from..to-1 and returns their ms; finish() checks the file and removes it.
function sequentialFloor(fsync) {
  const dir = fs.mkdtempSync(path.join(TMP_BASE, 'seq-floor-'));
  const file = path.join(dir, 'seq.txt');
  const before = seqFile(Math.max(CFG.seqEdits, CFG.seqLines));
  writeSynced(file, before);
  fsyncDir(dir);
  let done = 0;
  return {
    run(from, to) {
      const t0 = performance.now();
      for (let i = from; i < to; i++)
        floorEdit(file, Buffer.from(`item_${pad(i, 4)} = compute("alpha"`), Buffer.from(`item_${pad(i, 4)} = compute("beta"`), fsync);
      done = to;
      return performance.now() - t0;
    },
    finish() {
      const expected = before.split('\n').map((l, i) => (i < done ? l.replace('compute("alpha"', 'compute("beta"') : l)).join('\n');
      if (fs.readFileSync(file, 'utf8') !== expected) throw new Error('sequential floor produced a wrong file');
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

// One round: a fresh server and file, then seqEdits edits one after another (each waits for its
// reply). With `floor` (mcp-edit), every block of seqBlock edits is followed by the same edits done
// by the floor, so that both meet the same weather on a shared machine (its disk's latency moves
// tenfold within seconds); the server's time counts its own edits only.
async function sequentialRound(spec, capMs, floor) {
  const n = CFG.seqEdits;
  const root = freshRoot(spec, 'seq');
  const file = path.join(root, 'seq.txt');
  const before = seqFile(Math.max(n, CFG.seqLines));
  writeSynced(file, before);
  return withServer(spec, root, async (s) => {
    // Bounded: the cap stops starting new calls; the watchdog fails a call that never answers.
    const stopWatchdog = s.watchdog(capMs + CFG.opTimeoutMs + (floor ? capMs : 0));
    let ms = 0, floorMs = 0, done = 0;
    try {
      while (done < n && ms <= capMs) { // bounded: slow servers are measured on fewer calls
        const from = done;
        const t0 = performance.now();
        for (; done < Math.min(n, from + CFG.seqBlock); done++) {
          const r = await s.edit(file, `item_${pad(done, 4)} = compute("alpha"`, `item_${pad(done, 4)} = compute("beta"`, null).catch((e) => { if (e instanceof TimeoutError) s.timedOut = true; throw e; });
          if (!r.ok) return { status: 'wrong', detail: `edit ${done} failed: ${r.why}` };
          if (performance.now() - t0 + ms > capMs) { done++; break; }
        }
        ms += performance.now() - t0;
        if (floor) floorMs += floor.run(from, done);
      }
    } finally {
      stopWatchdog();
    }
    const lines = before.split('\n');
    for (let i = 0; i < done; i++) lines[i] = lines[i].replace('compute("alpha"', 'compute("beta"');
    const expected = lines.join('\n');
    const onDisk = fs.readFileSync(file, 'utf8');
    if (onDisk !== expected) return { status: 'wrong', detail: 'file on disk differs from the expected result' };
    const out = { status: 'ok', edits: done, planned: n, capped: done < n, total_ms: ms, calls_per_s: (done * 1000) / ms, error_logs: s.errorLogs };
    if (floor && done > 0) Object.assign(out, { floor_ms_per_edit: floorMs / done, x_floor: ms / floorMs });
    return out;
  });
}

// Up to seqRounds rounds (this VM's speed moves by tens of percent from one second to the next),
// within seqCapMs in all; the round with the median calls/s is reported, with every round's rate.
async function sequentialEdits(spec) {
  const rounds = [];
  const t0 = performance.now();
  for (let i = 0; i < CFG.seqRounds; i++) {
    const left = CFG.seqCapMs - (performance.now() - t0);
    if (i > 0 && left < CFG.seqCapMs / 4) break;
    const floor = spec.id.startsWith('mcp-edit') ? sequentialFloor(spec.fsyncs) : undefined;
    const r = await sequentialRound(spec, left, floor);
    floor?.finish();
    if (r.status !== 'ok') return r;
    rounds.push(r);
    if (r.capped) break;
  }
  const sorted = [...rounds].sort((a, b) => a.calls_per_s - b.calls_per_s);
  const mid = sorted[(sorted.length - 1) >> 1];
  const out = { ...mid, rounds: rounds.length, rounds_calls_per_s: rounds.map((r) => r.calls_per_s) };
  const ratios = rounds.filter((r) => r.x_floor !== undefined && !r.capped);
  if (ratios.length) Object.assign(out, { x_floor: median(ratios.map((r) => r.x_floor)), x_floor_all: ratios.map((r) => r.x_floor), floor_ms_per_edit: median(ratios.map((r) => r.floor_ms_per_edit)) });
  return out;
}

// A change with a check configured: CFG.checkEdits sequential edits of one .json file by a server
// started with --check CHECK_RULE, against the same edits by the same server without it. Every
// checked reply must carry the check's result, passed (the file stays valid JSON).
// BENCH_CHECK_RULE replaces it (e.g. '*.json=true' to time the runner without the checker).
const CHECK_RULE = process.env.BENCH_CHECK_RULE || '*.json=python3 -m json.tool {file}';
// The same edits told to a language server (--lsp): tests/fake_lsp, built beside mcp-edit, which
// answers at once, so the round measures what the LSP round trip costs mcp-edit (a real server's
// analysis time comes on top: see the README).
const FAKE_LSP = path.join(path.dirname(MCP_EDIT_SRC), 'tests', 'fake-lsp');
function checkJson(n, changed) {
  const keys = [];
  for (let i = 0; i < n; i++) keys.push(`  "key_${pad(i, 4)}": "${i < changed ? 'beta' : 'alpha'}"`);
  return `{\n${keys.join(',\n')}\n}\n`;
}

// mode: 'none', 'check' (--check CHECK_RULE) or 'lsp' (--lsp with FAKE_LSP).
async function checkEditsRound(spec, mode) {
  const n = CFG.checkEdits;
  const withCheck = mode !== 'none';
  const root = freshRoot(spec, mode);
  const file = path.join(root, 'conf.json');
  writeSynced(file, checkJson(n, 0));
  const extra = { none: [], check: ['--check', CHECK_RULE], lsp: ['--lsp', `*.json=${FAKE_LSP}`] }[mode];
  const checked = { ...spec, args: (r) => [...spec.args(r), ...extra] };
  return withServer(checked, root, async (s) => {
    const stopWatchdog = s.watchdog(n * CFG.opTimeoutMs);
    const t0 = performance.now();
    try {
      for (let i = 0; i < n; i++) {
        const reply = await s.request('tools/call', { name: 'edit', arguments: spec.editArgs(file, `"key_${pad(i, 4)}": "alpha"`, `"key_${pad(i, 4)}": "beta"`) }, null);
        const r = s.judge(reply);
        if (!r.ok) return { status: 'wrong', detail: `edit ${i} failed: ${r.why}` };
        const checks = reply.result?.structuredContent?.checks;
        if (withCheck && !(checks?.length === 1 && checks[0].status === 'passed' && !!checks[0].language_server === (mode === 'lsp')))
          return { status: 'wrong', detail: `edit ${i}: expected one passed check, got ${JSON.stringify(checks).slice(0, 300)}` };
        if (!withCheck && checks !== undefined) return { status: 'wrong', detail: `edit ${i}: a check ran without --check` };
      }
    } finally {
      stopWatchdog();
    }
    const ms = performance.now() - t0;
    if (fs.readFileSync(file, 'utf8') !== checkJson(n, n)) return { status: 'wrong', detail: 'file on disk differs from the expected result' };
    return { status: 'ok', edits: n, total_ms: ms, ms_per_edit: ms / n };
  });
}

async function checkEdits(spec) {
  const without = await checkEditsRound(spec, 'none');
  if (without.status !== 'ok') return without;
  const withCheck = await checkEditsRound(spec, 'check');
  if (withCheck.status !== 'ok') return withCheck;
  const withLsp = fs.existsSync(FAKE_LSP) ? await checkEditsRound(spec, 'lsp') : { status: 'ok', ms_per_edit: null };
  if (withLsp.status !== 'ok') return withLsp;
  // The check's own cost, for reference: its command run directly on the same file (split at
  // spaces: the rule has no quotes), found on the servers' PATH.
  const probeFile = path.join(freshRoot(spec, 'checkprobe'), 'conf.json');
  fs.writeFileSync(probeFile, checkJson(CFG.checkEdits, 0));
  const runs = [];
  for (let i = 0; i < 10; i++) {
    const t0 = performance.now();
    const argv = CHECK_RULE.slice(CHECK_RULE.indexOf('=') + 1).replaceAll('{file}', probeFile).split(' ');
    spawnSync(argv[0], argv.slice(1), { stdio: 'ignore', env: { ...process.env, PATH: SERVER_PATH } });
    runs.push(performance.now() - t0);
  }
  return {
    status: 'ok', edits: CFG.checkEdits, rule: CHECK_RULE,
    without_ms_per_edit: without.ms_per_edit, with_ms_per_edit: withCheck.ms_per_edit,
    overhead_ms_per_edit: withCheck.ms_per_edit - without.ms_per_edit, check_alone_ms: median(runs),
    lsp_ms_per_edit: withLsp.ms_per_edit,
  };
}

// Merges (mcp-edit only), each against the same call with nothing changed on disk; medians of 3,
// the file must hold both changes.
// - edit, CFG.mergeMB file, --approval ask: while the form is open, another program appends a line;
//   the human applies; the edit (of the middle line) is merged with the append and asked again
//   (a second form, applied at once). Timed from the call to its reply, the bench answering forms
//   at once: merged = plan + form + merge + second form + write; plain = plan + form + write.
// - write, CFG.writeMergeMB file (the session keeps what it saw of files up to 1 MiB, the base a
//   write merges from): read, another program appends a line, `write` sends the whole content
//   with its first line changed.
async function mergeBig(spec) {
  const APPENDED = 'APPENDED BY ANOTHER PROGRAM\n';
  const asking = { ...spec, args: (r) => spec.args(r).map((a) => (a === 'auto' ? 'ask' : a)) };
  const editRound = async (merge) => {
    const d = bigData(CFG.mergeMB);
    const root = freshRoot(spec, merge ? 'emerge' : 'enomerge');
    const file = path.join(root, 'big.txt');
    writeSynced(file, d.before);
    let forms = 0;
    return withServer(asking, root, async (s) => {
      s.answer = (req) => {
        if (req.method !== 'elicitation/create') return undefined;
        if (merge && forms === 0) fs.appendFileSync(file, APPENDED);
        forms++;
        return { action: 'accept', content: { decision: 'apply' } };
      };
      const t0 = performance.now();
      const reply = await s.request('tools/call', { name: 'edit', arguments: spec.editArgs(file, d.oldLine, d.newLine) }, CFG.bigTimeoutMs);
      const ms = performance.now() - t0;
      const r = s.judge(reply);
      if (!r.ok) return { status: 'wrong', detail: `edit failed: ${r.why}` };
      if (forms !== (merge ? 2 : 1)) return { status: 'wrong', detail: `${forms} forms, expected ${merge ? 2 : 1}` };
      const want = merge ? Buffer.concat([d.after, Buffer.from(APPENDED)]) : d.after;
      if (!fs.readFileSync(file).equals(want)) return { status: 'wrong', detail: 'the file does not hold the expected bytes' };
      if (merge && !/merged/i.test(textOf(reply.result))) return { status: 'wrong', detail: 'the result does not say it merged' };
      return { status: 'ok', ms };
    }, { elicitation: {} });
  };
  const content = bigContent(CFG.writeMergeMB * 1000 * 1000).before.toString();
  const changed = 'CHANGED' + content.slice(content.indexOf(' '));
  const writeRound = async (merge) => {
    const root = freshRoot(spec, merge ? 'wmerge' : 'wnomerge');
    const file = path.join(root, 'big.txt');
    writeSynced(file, content);
    return withServer(spec, root, async (s) => {
      const read = await s.request('tools/call', { name: 'read', arguments: { file_path: file, limit: 1 } }, CFG.bigTimeoutMs);
      if (!s.judge(read).ok) return { status: 'wrong', detail: `read failed: ${s.judge(read).why}` };
      if (merge) fs.appendFileSync(file, APPENDED);
      const t0 = performance.now();
      const reply = await s.request('tools/call', { name: 'write', arguments: { file_path: file, content: changed } }, CFG.bigTimeoutMs);
      const ms = performance.now() - t0;
      const r = s.judge(reply);
      if (!r.ok) return { status: 'wrong', detail: `write failed: ${r.why}` };
      const want = merge ? changed + APPENDED : changed;
      if (fs.readFileSync(file, 'utf8') !== want) return { status: 'wrong', detail: 'the file does not hold the expected bytes' };
      if (merge && !/merged/i.test(textOf(reply.result))) return { status: 'wrong', detail: 'the result does not say it merged' };
      return { status: 'ok', ms };
    });
  };
  const times = { edit_merged: [], edit_plain: [], write_merged: [], write_plain: [] };
  for (let i = 0; i < 3; i++) {
    for (const [key, run] of [['edit_plain', () => editRound(false)], ['edit_merged', () => editRound(true)],
      ['write_plain', () => writeRound(false)], ['write_merged', () => writeRound(true)]]) {
      const r = await run();
      if (r.status !== 'ok') return { ...r, detail: `${key}: ${r.detail}` };
      times[key].push(r.ms);
    }
  }
  return {
    status: 'ok', mb: CFG.mergeMB, write_mb: CFG.writeMergeMB,
    merged_ms: median(times.edit_merged), plain_ms: median(times.edit_plain),
    write_merged_ms: median(times.write_merged), write_plain_ms: median(times.write_plain),
  };
}

// A legacy-encoded file read (mcp-edit only, issue 42): CFG.legacyMB of Western text in cp1252
// (é, ü, curly quotes, dashes and € in every line, so it is detected as windows-1252) read through
// `read` (limit 1: the file is loaded, its encoding decided and decoded, its lines counted and
// hashed; the reply stays small), against the same text saved as UTF-8; alternated, median of 5
// each. The read must say windows-1252 and show the first line as UTF-8.
async function legacyRead(spec) {
  const line = (i) => `Zeile ${pad(i, 7)}: Größenänderung für „Fenster“ – café crème à 5 € — déjà vu, naïve Übersicht\n`;
  const utf8 = [];
  let size = 0;
  for (let i = 0; size < CFG.legacyMB * 1024 * 1024; i++) { const l = line(i); utf8.push(l); size += Buffer.byteLength(l, 'latin1'); }
  const text = utf8.join('');
  const cp1252 = Buffer.from(text.replace(/[„“–—€]/g, (c) => ({ '„': '\x84', '“': '\x93', '–': '\x96', '—': '\x97', '€': '\x80' })[c]), 'latin1');
  const root = freshRoot(spec, 'legacy');
  const legacyFile = path.join(root, 'legacy.txt');
  const utf8File = path.join(root, 'utf8.txt');
  writeSynced(legacyFile, cp1252);
  writeSynced(utf8File, Buffer.from(text, 'utf8'));
  return withServer(spec, root, async (s) => {
    const times = { legacy: [], utf8: [] };
    for (let i = 0; i < 5; i++) {
      for (const [key, file] of [['legacy', legacyFile], ['utf8', utf8File]]) {
        const t0 = performance.now();
        const reply = await s.request('tools/call', { name: 'read', arguments: { file_path: file, limit: 1 } }, CFG.bigTimeoutMs);
        const ms = performance.now() - t0;
        const r = s.judge(reply);
        if (!r.ok) return { status: 'wrong', detail: `read of ${key} failed: ${r.why}` };
        const facts = reply.result.structuredContent || {};
        const want = key === 'legacy' ? 'windows-1252' : 'utf-8';
        if (facts.encoding !== want) return { status: 'wrong', detail: `${key}: encoding ${facts.encoding}, expected ${want}` };
        if (!textOf(reply.result).includes('Größenänderung für „Fenster“ – café crème à 5 €')) return { status: 'wrong', detail: `${key}: the first line is not shown as its text` };
        times[key].push(ms);
      }
    }
    const legacy = median(times.legacy), plain = median(times.utf8);
    return { status: 'ok', mb: CFG.legacyMB, legacy_ms: legacy, utf8_ms: plain, x_utf8: legacy / plain, legacy_ms_all: times.legacy, utf8_ms_all: times.utf8 };
  });
}

// The session patch (mcp-edit only): CFG.patchChanges sequential edits spread over 50 files of
// 200 lines, then resources/read of mcp-edit://session/patch and the changes tool, each timed
// (median of 5); the patch must hold every change.
async function sessionPatch(spec) {
  const root = freshRoot(spec, 'patch');
  const files = 50, n = CFG.patchChanges;
  const lines = (f) => Array.from({ length: 200 }, (_, i) => `file ${f} line ${pad(i, 4)} original\n`).join('');
  for (let f = 0; f < files; f++) writeSynced(path.join(root, `f${pad(f, 3)}.txt`), lines(f));
  return withServer(spec, root, async (s) => {
    for (let i = 0; i < n; i++) {
      const f = i % files, line = Math.floor(i / files) * 7;
      const reply = await s.request('tools/call', { name: 'edit', arguments: spec.editArgs(path.join(root, `f${pad(f, 3)}.txt`), `file ${f} line ${pad(line, 4)} original`, `file ${f} line ${pad(line, 4)} changed`) }, null);
      if (!s.judge(reply).ok) return { status: 'wrong', detail: `edit ${i} failed: ${s.judge(reply).why}` };
    }
    const readRuns = [], toolRuns = [];
    let text = '';
    for (let k = 0; k < 5; k++) {
      let t0 = performance.now();
      const read = await s.request('resources/read', { uri: 'mcp-edit://session/patch' }, CFG.opTimeoutMs);
      readRuns.push(performance.now() - t0);
      text = read.result?.contents?.[0]?.text ?? '';
      t0 = performance.now();
      const tool = await s.request('tools/call', { name: 'changes', arguments: {} }, CFG.opTimeoutMs);
      toolRuns.push(performance.now() - t0);
      if (tool.result?.structuredContent?.files?.length !== files) return { status: 'wrong', detail: 'changes did not list every file' };
    }
    const added = text.split('\n').filter((l) => l.startsWith('+') && l.endsWith(' changed')).length;
    if (added !== n) return { status: 'wrong', detail: `the session patch holds ${added} of ${n} changes` };
    return { status: 'ok', changes: n, files, patch_bytes: text.length, read_ms: median(readRuns), changes_tool_ms: median(toolRuns) };
  });
}

const BIG_LINE = (i) => `${pad(i, 8)} lorem ipsum dolor sit amet, consectetur adipiscing elit, sed do eiusmod\n`;
function bigContent(bytes) {
  const lineLen = BIG_LINE(0).length;
  const lines = Math.ceil(bytes / lineLen);
  const parts = new Array(lines);
  for (let i = 0; i < lines; i++) parts[i] = BIG_LINE(i);
  const mid = lines >> 1;
  const oldLine = BIG_LINE(mid).slice(0, -1);
  const newLine = oldLine.replace('lorem ipsum', 'LOREM IPSUM (edited)');
  const before = Buffer.from(parts.join(''));
  parts[mid] = newLine + '\n';
  const after = Buffer.from(parts.join(''));
  return { before, after, oldLine, newLine, lines };
}

const bigCache = new Map();
function bigData(mb) {
  if (!bigCache.has(mb)) bigCache.set(mb, bigContent(mb * 1024 * 1024));
  return bigCache.get(mb);
}

async function bigEdit(spec, mb) {
  const d = bigData(mb);
  const root = freshRoot(spec, `big${mb}`);
  const file = path.join(root, `big-${mb}mb.txt`);
  writeSynced(file, d.before);
  fsyncDir(root);
  return withServer(spec, root, async (s) => {
    const idle = s.procStatus();
    const t0 = performance.now();
    let r;
    try {
      r = await s.edit(file, d.oldLine, d.newLine, CFG.bigTimeoutMs);
    } catch (e) {
      if (e instanceof TimeoutError) s.timedOut = true;
      throw e;
    }
    const ms = performance.now() - t0;
    const st = s.procStatus();
    if (!r.ok) return { status: 'wrong', detail: `edit failed: ${r.why}` };
    const onDisk = fs.readFileSync(file);
    if (!onDisk.equals(d.after)) return { status: 'wrong', detail: `file on disk differs from the expected result (${onDisk.length} bytes, expected ${d.after.length})` };
    return { status: 'ok', bytes: d.before.length, ms, peak_rss_mib: MiB(st.hwmKB), rss_before_mib: MiB(idle.rssKB) };
  });
}

// Each run on a fresh server and a fresh copy of the file; the median time and peak RSS. For
// mcp-edit, each run is paired with a run of the floor (with or without fsync, as the server does)
// just before it, so that both meet the same weather on a shared machine: "× floor" is the median
// of the per-run ratios.
async function bigEditRuns(spec, mb) {
  const runs = [];
  const floors = [];
  const paired = spec.id.startsWith('mcp-edit');
  for (let i = 0; i < CFG.bigRuns; i++) {
    if (paired) floors.push(floorOnce(mb, spec.fsyncs));
    const r = await guarded(() => bigEdit(spec, mb));
    if (r.status !== 'ok') return { ...r, detail: `${CFG.bigRuns > 1 ? `run ${i + 1}: ` : ''}${r.detail}` };
    runs.push(r);
  }
  const out = {
    status: 'ok', bytes: runs[0].bytes, runs: runs.length,
    ms: median(runs.map((r) => r.ms)), ms_all: runs.map((r) => r.ms),
    peak_rss_mib: median(runs.map((r) => r.peak_rss_mib)), peak_rss_mib_all: runs.map((r) => r.peak_rss_mib),
    rss_before_mib: runs[0].rss_before_mib,
  };
  if (paired) {
    const ratios = runs.map((r, i) => r.ms / floors[i]);
    Object.assign(out, { floor_ms: median(floors), floor_ms_all: floors, x_floor: median(ratios), x_floor_all: ratios });
  }
  return out;
}

// The floor: what the same change costs done directly from Node: read, change, write a temp file,
// (fsync it), rename over, (fsync the directory).
function floorOnce(mb, fsync) {
  const d = bigData(mb);
  const dir = fs.mkdtempSync(path.join(TMP_BASE, `floor-${mb}-`));
  const file = path.join(dir, 'big.txt');
  writeSynced(file, d.before);
  fsyncDir(dir);
  const t0 = performance.now();
  floorEdit(file, Buffer.from(d.oldLine), Buffer.from(d.newLine), fsync);
  const ms = performance.now() - t0;
  if (!fs.readFileSync(file).equals(d.after)) throw new Error('floor produced a wrong file');
  fs.rmSync(dir, { recursive: true, force: true });
  return ms;
}

function manyFileContent(i) {
  let s = '';
  for (let l = 0; l < 20; l++) s += `file ${pad(i, 3)} line ${pad(l, 2)}: ${l === 10 ? 'TARGET old value' : 'filler text'}\n`;
  return s;
}

async function manyFiles(spec) {
  const n = CFG.manyFiles;
  const root = freshRoot(spec, 'many');
  const files = [];
  for (let i = 0; i < n; i++) {
    const f = path.join(root, `f${pad(i, 3)}.txt`);
    fs.writeFileSync(f, manyFileContent(i));
    files.push(f);
  }
  syncAll();
  return withServer(spec, root, async (s) => {
    const prepared = files.map((f, i) => s.prepareEdit(f, `file ${pad(i, 3)} line 10: TARGET old value`, `file ${pad(i, 3)} line 10: TARGET new value`));
    const { replies, ms, timeout } = await sendAllTimed(s, prepared);
    if (timeout) return timeout;
    const results = replies.map((r) => s.judge(r));
    const okReplies = results.filter((r) => r.ok).length;
    let correct = 0;
    files.forEach((f, i) => { if (fs.readFileSync(f, 'utf8') === manyFileContent(i).replace('TARGET old value', 'TARGET new value')) correct++; });
    if (okReplies !== n || correct !== n) {
      const firstBad = results.find((r) => !r.ok);
      return { status: 'wrong', files: n, ok_replies: okReplies, correct_on_disk: correct, detail: `${okReplies}/${n} success replies, ${correct}/${n} files right${firstBad ? `; first failure: ${firstBad.why}` : ''}` };
    }
    return { status: 'ok', files: n, total_ms: ms, per_edit_ms: ms / n };
  });
}

// Sends every prepared call at once; {replies, ms}, or {timeout: the workload's result} when the
// replies do not all come within the batch timeout.
async function sendAllTimed(s, prepared) {
  const t0 = performance.now();
  try {
    const replies = await s.sendAll(prepared, CFG.batchTimeoutMs);
    return { replies, ms: performance.now() - t0 };
  } catch (e) {
    if (!(e instanceof TimeoutError)) throw e;
    s.timedOut = true;
    const answered = prepared.filter((p) => !s.pending.has(p.id)).length;
    return { timeout: { status: 'timeout', detail: `${e.message}; ${answered}/${prepared.length} replies received` } };
  }
}

// Flushes the set-up writes so their write-back does not land inside a timed section.
function syncAll() {
  spawnSync('sync', { stdio: 'ignore' });
}

function sameFileContent(n) {
  let s = '';
  for (let i = 0; i < n; i++) s += `line ${pad(i, 3)}: state = "pending";\n`;
  return s;
}

async function sameFile(spec) {
  const n = CFG.sameFile;
  const root = freshRoot(spec, 'same');
  const file = path.join(root, 'shared.txt');
  writeSynced(file, sameFileContent(n));
  return withServer(spec, root, async (s) => {
    const prepared = [];
    for (let i = 0; i < n; i++) prepared.push(s.prepareEdit(file, `line ${pad(i, 3)}: state = "pending";`, `line ${pad(i, 3)}: state = "done";`));
    const { replies, ms, timeout } = await sendAllTimed(s, prepared);
    if (timeout) return timeout;
    const okReplies = replies.map((r) => s.judge(r)).filter((r) => r.ok).length;
    const lines = fs.readFileSync(file, 'utf8').split('\n').filter((l) => l.length);
    const survived = lines.filter((l) => l.endsWith('state = "done";')).length;
    const intact = lines.length === n && lines.every((l, i) => l.startsWith(`line ${pad(i, 3)}: state = `));
    const status = survived === n && okReplies === n && intact ? 'ok' : 'wrong';
    return {
      status, edits: n, survived, ok_replies: okReplies, file_intact: intact, total_ms: ms,
      detail: status === 'ok' ? undefined : `${survived}/${n} changes on disk, ${okReplies}/${n} replies said success${intact ? '' : ', file structure damaged'}`,
    };
  });
}

// ---- main --------------------------------------------------------------------------------------
async function main() {
  if (!fs.existsSync(MCP_EDIT_SRC)) {
    log(`bench: ${MCP_EDIT_SRC} not found; build it first (scripts/build)`);
    fs.rmSync(TMP_BASE, { recursive: true, force: true });
    process.exit(2);
  }
  fs.copyFileSync(MCP_EDIT_SRC, MCP_EDIT_BIN);
  fs.chmodSync(MCP_EDIT_BIN, 0o755);
  const mcpEditVersion = spawnSync(MCP_EDIT_BIN, ['--version'], { encoding: 'utf8' }).stdout.trim();
  const specs = [mcpEditSpec(false), mcpEditSpec(true)];
  const peerNotes = {};
  if (!NO_PEERS) {
    const fsInfo = pkgInfo('@modelcontextprotocol/server-filesystem');
    const dcInfo = pkgInfo('@wonderwhy-er/desktop-commander');
    if (fsInfo) specs.push(filesystemSpec(fsInfo)); else peerNotes.filesystem = 'not installed (npm ci in bench/)';
    if (dcInfo) specs.push(desktopCommanderSpec(dcInfo)); else peerNotes['desktop-commander'] = 'not installed (npm ci in bench/)';
  }

  const started = performance.now();
  const results = {};
  const runs = specs.map((spec) => {
    const r = (results[spec.id] = { label: spec.label, fsyncs: spec.fsyncs, tool: spec.tool, workloads: {} });
    const W = r.workloads;
    let spent = 0;  // this server's time so far, over both phases
    const skip = { status: 'skipped', detail: 'time budget for this server spent' };
    const step = async (name, fn) => {
      if (ONLY && name !== 'probe' && !ONLY.has(name)) { W[name] = { status: 'skipped', detail: 'not in --only' }; return; }
      if (spent > SERVER_BUDGET_MS) { W[name] = skip; return; }
      log(`bench: ${spec.label}: ${name}`);
      syncAll();  // each workload starts with no writeback of the one before still going on
      const t0 = performance.now();
      W[name] = await guarded(fn);
      spent += performance.now() - t0;
      r.elapsed_s = spent / 1000;
      if (W[name].status !== 'ok') log(`bench:   -> ${W[name].status}: ${W[name].detail || ''}`);
    };
    return { spec, r, W, step };
  });
  // Phase 1, every server: start-up and sequential edits, before the driver holds the big files'
  // buffers (a larger driver process spawns children more slowly and has more to collect, which
  // would count against whichever server came later).
  for (const { spec, r, W, step } of runs) {
    await step('probe', () => probe(spec));
    if (W.probe.status !== 'ok') { r.broken = W.probe.detail; continue; }
    r.server_info = W.probe.server_info;
    await step('cold_start', () => coldStart(spec));
    await step('sequential_edits', () => sequentialEdits(spec));
    if (spec.id.startsWith('mcp-edit')) {
      await step('check_edits', () => checkEdits(spec));
      await step('merge_big', () => mergeBig(spec));
      await step('session_patch', () => sessionPatch(spec));
    }
  }
  // Phase 2, server by server: the other workloads.
  for (const { spec, r, W, step } of runs) {
    if (r.broken) continue;
    let bigFailed = null;
    for (const mb of CFG.bigSizesMB) {
      const name = `big_${mb}mb`;
      if (bigFailed) { W[name] = { status: 'skipped', detail: `not tried after ${bigFailed}` }; continue; }
      await step(name, () => bigEditRuns(spec, mb));
      if (W[name].status === 'timeout' || W[name].status === 'error') bigFailed = `${W[name].status} at ${mb} MB`;
    }
    await step('many_files_in_flight', () => manyFiles(spec));
    await step('same_file_in_flight', () => sameFile(spec));
    if (spec.id.startsWith('mcp-edit')) await step('legacy_read', () => legacyRead(spec));
  }

  const out = {
    generated: new Date().toISOString(),
    mode: QUICK ? 'quick' : 'full',
    machine: { cpus: os.cpus().length, cpu_model: os.cpus()[0]?.model, mem_gib: round(os.totalmem() / 2 ** 30, 1), kernel: os.release(), node: process.version, tmpdir: TMP_BASE },
    config: CFG,
    mcp_edit: { binary: MCP_EDIT_SRC, version: mcpEditVersion },
    peer_notes: peerNotes,
    servers: results,
    elapsed_s: (performance.now() - started) / 1000,
  };
  fs.writeFileSync(OUT, JSON.stringify(out, null, 2) + '\n');
  process.stdout.write(renderTables(out, specs) + '\n');
  fs.rmSync(TMP_BASE, { recursive: true, force: true });
}

// ---- report ------------------------------------------------------------------------------------
function cell(w, fmt) {
  if (!w) return 'n/a';
  if (w.status === 'ok') return fmt(w);
  if (w.status === 'wrong') return `WRONG: ${String(w.detail).replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 160)}`;
  return `${w.status}${w.detail ? ` (${w.detail.replace(/\|/g, '/').replace(/\s+/g, ' ').slice(0, 90)})` : ''}`;
}

function renderTables(out, specs) {
  const ids = specs.map((s) => s.id);
  const S = out.servers;
  const w = (id, name) => S[id]?.workloads?.[name];
  const ms = (x) => (x >= 100 ? `${Math.round(x)} ms` : `${x.toFixed(x >= 10 ? 1 : 2)} ms`);
  const mib = (x) => (x == null ? '?' : `${x.toFixed(1)} MiB`);
  const rows = [];
  rows.push(['cold start: spawn → initialize reply (median)', (id) => cell(w(id, 'cold_start'), (v) => `${ms(v.median_ms)} (n=${v.runs})`)]);
  rows.push(['idle RSS after initialize', (id) => cell(w(id, 'probe'), (v) => mib(v.idle_rss_mib))]);
  rows.push([`${out.config.seqEdits} sequential edits, one file of ${out.config.seqLines} lines (mcp-edit: × the floor, the same edits done from Node, each block of ${out.config.seqBlock} edits followed by the floor's)`, (id) => cell(w(id, 'sequential_edits'), (v) => `${v.calls_per_s >= 10 ? Math.round(v.calls_per_s) : v.calls_per_s.toFixed(1)} calls/s${v.rounds > 1 ? ` (median of ${v.rounds} rounds)` : ''}${v.x_floor !== undefined ? `, ${v.x_floor.toFixed(2)}× the floor (${(v.floor_ms_per_edit * 1000).toFixed(0)} µs per edit; the server ${Math.round((v.x_floor - 1) * v.floor_ms_per_edit * 1000)} µs more)` : ''}${v.capped ? ` (stopped at the ${out.config.seqCapMs / 1000} s cap after ${v.edits} edits)` : ''}`)]);
  rows.push([`${out.config.checkEdits} sequential edits of a .json file: per edit without / with --check '${CHECK_RULE}' (the check alone) / with --lsp (a language server that answers at once)`, (id) => {
    if (!id.startsWith('mcp-edit')) return 'no checks';
    return cell(w(id, 'check_edits'), (v) => `${ms(v.without_ms_per_edit)} / ${ms(v.with_ms_per_edit)} (${ms(v.check_alone_ms)}) / ${v.lsp_ms_per_edit == null ? 'not built' : ms(v.lsp_ms_per_edit)}`);
  }]);
  rows.push([`edit of a ${out.config.mergeMB} MB file changed on disk while the form is open: merged and asked again / same edit, nothing changed (median of 3)`, (id) => {
    if (!id.startsWith('mcp-edit')) return 'no merge';
    return cell(w(id, 'merge_big'), (v) => `${ms(v.merged_ms)} / ${ms(v.plain_ms)}`);
  }]);
  rows.push([`write over a ${out.config.writeMergeMB} MB file changed since it was read: merged / same write, nothing changed (median of 3)`, (id) => {
    if (!id.startsWith('mcp-edit')) return 'no merge';
    return cell(w(id, 'merge_big'), (v) => `${ms(v.write_merged_ms)} / ${ms(v.write_plain_ms)}`);
  }]);
  rows.push([`session patch after ${out.config.patchChanges} edits of 50 files: resources/read / changes tool (median of 5)`, (id) => {
    if (!id.startsWith('mcp-edit')) return 'no session patch';
    return cell(w(id, 'session_patch'), (v) => `${ms(v.read_ms)} / ${ms(v.changes_tool_ms)} (${Math.round(v.patch_bytes / 1024)} KiB)`);
  }]);
  rows.push([`read of a ${out.config.legacyMB} MB cp1252 file / the same text in UTF-8 (median of 5; goal ≤ 1.5×)`, (id) => {
    if (!id.startsWith('mcp-edit')) return 'no legacy encodings';
    return cell(w(id, 'legacy_read'), (v) => `${ms(v.legacy_ms)} / ${ms(v.utf8_ms)} (${v.x_utf8.toFixed(2)}×)`);
  }]);
  for (const mb of out.config.bigSizesMB) {
    rows.push([`one edit in a ${mb} MB file: time / peak RSS${out.config.bigRuns > 1 ? ` (median of ${out.config.bigRuns})` : ''}`, (id) => cell(w(id, `big_${mb}mb`), (v) => `${ms(v.ms)} / ${mib(v.peak_rss_mib)}`)]);
  }
  rows.push([`${out.config.manyFiles} files, all edits in flight: total`, (id) => cell(w(id, 'many_files_in_flight'), (v) => ms(v.total_ms))]);
  rows.push([`${out.config.sameFile} same-file edits in flight: changes on disk, success replies`, (id) => {
    const v = w(id, 'same_file_in_flight');
    if (v && (v.status === 'ok' || v.status === 'wrong') && v.survived != null) {
      const head = `${v.survived}/${v.edits} on disk, ${v.ok_replies}/${v.edits} said ok`;
      if (v.status === 'ok') return `${head} (${ms(v.total_ms)})`;
      const lost = v.ok_replies > v.survived ? `: ${v.ok_replies - v.survived} lost updates reported as success` : '';
      return `WRONG: ${head}${lost}${v.file_intact ? '' : ', file damaged'}`;
    }
    return cell(v, () => '');
  }]);

  const lines = [];
  lines.push(`### mcp-edit benchmark (${out.mode}; ${out.mcp_edit.version || 'mcp-edit'}; ${out.machine.cpus} cores, Node ${out.machine.node}, ${out.generated})`);
  lines.push('');
  lines.push(`| workload | ${ids.map((id) => S[id]?.label || id).join(' | ')} |`);
  lines.push(`|---|${ids.map(() => '---').join('|')}|`);
  for (const [label, f] of rows) lines.push(`| ${label} | ${ids.map((id) => (S[id]?.broken ? `broken: ${S[id].broken}` : f(id))).join(' | ')} |`);
  for (const [k, v] of Object.entries(out.peer_notes)) lines.push(`\n${k}: ${v}`);

  // floor
  lines.push('');
  lines.push('#### Big files against the floor (Node: read, change, write temp, fsync, rename, fsync dir), each run paired with a floor run just before it; medians of ' + out.config.bigRuns);
  lines.push('');
  lines.push('| file | floor (fsync) | mcp-edit | × floor | floor (no fsync) | mcp-edit --no-fsync | × floor |');
  lines.push('|---|---|---|---|---|---|---|');
  for (const mb of out.config.bigSizesMB) {
    const a = w('mcp-edit', `big_${mb}mb`), b = w('mcp-edit-nofsync', `big_${mb}mb`);
    if (a?.status === 'skipped' && b?.status === 'skipped') continue;
    const floorOf = (v) => (v?.status === 'ok' ? ms(v.floor_ms) : 'n/a');
    const ratio = (v) => (v?.status === 'ok' ? `${v.x_floor.toFixed(2)}×` : 'n/a');
    lines.push(`| ${mb} MB | ${floorOf(a)} | ${cell(a, (v) => ms(v.ms))} | ${ratio(a)} | ${floorOf(b)} | ${cell(b, (v) => ms(v.ms))} | ${ratio(b)} |`);
  }

  // ratios against peers
  const peers = ids.filter((id) => !id.startsWith('mcp-edit'));
  if (peers.length) {
    lines.push('');
    lines.push('#### Peers relative to mcp-edit (peer ÷ mcp-edit: above 1 = mcp-edit is faster / smaller). The peers do not fsync, so times are also compared with mcp-edit --no-fsync.');
    lines.push('');
    const metrics = [
      ['cold start', 'cold_start', (v) => v.median_ms, false],
      ['idle RSS', 'probe', (v) => v.idle_rss_mib, false],
      ['sequential edits (time per call)', 'sequential_edits', (v) => v.total_ms / v.edits, true],
      ...out.config.bigSizesMB.flatMap((mb) => [
        [`${mb} MB edit time`, `big_${mb}mb`, (v) => v.ms, true],
        [`${mb} MB peak RSS`, `big_${mb}mb`, (v) => v.peak_rss_mib, false],
      ]),
      ['many files in flight', 'many_files_in_flight', (v) => v.total_ms, true],
    ];
    const head = peers.flatMap((p) => [`${S[p].label} ÷ mcp-edit`, `${S[p].label} ÷ --no-fsync`]);
    lines.push(`| metric | ${head.join(' | ')} |`);
    lines.push(`|---|${head.map(() => '---').join('|')}|`);
    for (const [label, name, get, timed] of metrics) {
      const r = (peer, base) => {
        const pv = w(peer, name), bv = w(base, name);
        if (pv?.status !== 'ok') return pv ? pv.status : 'n/a';
        if (bv?.status !== 'ok') return `mcp-edit ${bv ? bv.status : 'n/a'}`;
        const x = get(pv) / get(bv);
        return `${x.toFixed(x >= 10 ? 0 : 2)}×`;
      };
      lines.push(`| ${label} | ${peers.flatMap((p) => [r(p, 'mcp-edit'), timed ? r(p, 'mcp-edit-nofsync') : '—']).join(' | ')} |`);
    }
  }
  lines.push('');
  lines.push(`Total bench time ${out.elapsed_s.toFixed(1)} s. Every result was checked on disk; "WRONG" means the server's reply or the file did not match what was asked. Raw numbers: bench/results.json.`);
  return lines.join('\n');
}

main().catch((e) => {
  log(`bench: ${e && e.stack ? e.stack : e}`);
  try { fs.rmSync(TMP_BASE, { recursive: true, force: true }); } catch {}
  process.exit(1);
});
