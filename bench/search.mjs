#!/usr/bin/env node
// The search workload (issue 25): mcp-edit's grep, find and list on a large real C tree (Debian's
// Linux source, drivers/), timed warm against ripgrep, GNU grep/find and server-filesystem, counts checked.
// Usage: node bench/search.mjs [--quick] [--no-peers]. Environment: MCP_EDIT_BIN (default build/mcp-edit),
// BENCH_SEARCH_TREE (a folder to search instead of the fetched one), BENCH_SEARCH_OUT
// (default bench/search-results.json). Prints a markdown table; progress goes to stderr.
import { spawn, spawnSync } from 'node:child_process';
import { createRequire } from 'node:module';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..');
const args = new Set(process.argv.slice(2));
for (const a of args) {
  if (!['--quick', '--no-peers'].includes(a)) {
    process.stderr.write(`search.mjs: unknown argument ${a}\nusage: node bench/search.mjs [--quick] [--no-peers]\n`);
    process.exit(2);
  }
}
const RUNS = args.has('--quick') ? 3 : 7;         // timed runs per cell, after one warm-up run
const SLOW_RUNS = args.has('--quick') ? 1 : 3;    // for server-filesystem (seconds per call)
const TIMEOUT_MS = 180_000;
const OUT = process.env.BENCH_SEARCH_OUT || path.join(here, 'search-results.json');
const log = (...a) => process.stderr.write(a.join(' ') + '\n');

// ---- the tree -----------------------------------------------------------------------------------
// Debian's source package of the kernel the system's linux-libc-dev comes from, fetched once
// (about 140 MB, 20 s) by scripts/debian-source into the git-ignored bench/.cache/.
function tree() {
  if (process.env.BENCH_SEARCH_TREE) return path.resolve(process.env.BENCH_SEARCH_TREE);
  log('search: fetching (once) Debian\'s linux source into bench/.cache/linux-source');
  const r = spawnSync(path.join(repo, 'scripts', 'debian-source'), ['linux-libc-dev', 'linux', path.join(here, '.cache', 'linux-source')],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  if (r.status !== 0) throw new Error('scripts/debian-source linux-libc-dev linux failed (is linux-libc-dev installed?)');
  return path.join(r.stdout.trim(), 'drivers');
}

// ---- a minimal MCP client over stdio ------------------------------------------------------------
class Server {
  constructor(command, argv, cwd) {
    this.proc = spawn(command, argv, { cwd, stdio: ['pipe', 'pipe', 'pipe'] });
    this.pending = new Map();
    this.nextId = 1;
    this.chunks = [];
    this.stderr = '';
    this.proc.stdout.on('data', (d) => this.onData(d));
    this.proc.stderr.on('data', (d) => { if (this.stderr.length < 20_000) this.stderr += d; });
    this.proc.on('exit', (code) => {
      for (const [, p] of this.pending) p.reject(new Error(`server exited (${code}): ${this.stderr.slice(-400)}`));
      this.pending.clear();
    });
  }

  // Replies can be megabytes (directory_tree): lines are joined from Buffers only at a newline.
  onData(d) {
    let start = 0, nl;
    while ((nl = d.indexOf(10, start)) >= 0) {
      this.chunks.push(d.subarray(start, nl));
      const line = Buffer.concat(this.chunks).toString('utf8');
      this.chunks = [];
      start = nl + 1;
      if (line.trim()) this.onMessage(JSON.parse(line));
    }
    if (start < d.length) this.chunks.push(d.subarray(start));
  }

  onMessage(msg) {
    if (msg.method !== undefined) {
      if (msg.id !== undefined) this.write({ jsonrpc: '2.0', id: msg.id, error: { code: -32601, message: 'Method not found' } });
      return;
    }
    const p = this.pending.get(msg.id);
    if (p) { this.pending.delete(msg.id); p.resolve(msg); }
  }

  write(obj) { this.proc.stdin.write(JSON.stringify(obj) + '\n'); }

  request(method, params) {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => { this.pending.delete(id); reject(new Error(`${method}: no reply within ${TIMEOUT_MS} ms`)); }, TIMEOUT_MS);
      this.pending.set(id, { resolve: (m) => { clearTimeout(timer); resolve(m); }, reject: (e) => { clearTimeout(timer); reject(e); } });
      this.write({ jsonrpc: '2.0', id, method, params });
    });
  }

  async initialize() {
    const r = await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'mcp-edit-bench', version: '1.0.0' } });
    if (r.error) throw new Error(`initialize: ${JSON.stringify(r.error)}`);
    this.write({ jsonrpc: '2.0', method: 'notifications/initialized' });
  }

  // Time from writing the request to parsing its reply; the result, or an Error when the tool failed.
  async call(name, argsObj) {
    const t0 = performance.now();
    const r = await this.request('tools/call', { name, arguments: argsObj });
    const ms = performance.now() - t0;
    if (r.error) throw new Error(`${name}: JSON-RPC error ${JSON.stringify(r.error)}`);
    if (r.result.isError) throw new Error(`${name}: ${JSON.stringify(r.result.content).slice(0, 400)}`);
    return { ms, result: r.result };
  }

  stop() {
    const done = new Promise((r) => this.proc.once('exit', r));
    this.proc.stdin.end();
    const t = setTimeout(() => this.proc.kill('SIGKILL'), 3000);
    return done.then(() => clearTimeout(t));
  }
}

// ---- processes ------------------------------------------------------------------------------------
// A command's wall time with its whole output read (as a caller reads it), and that output.
function runProcess(command, argv, cwd) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const p = spawn(command, argv, { cwd, stdio: ['ignore', 'pipe', 'pipe'] });
    const out = [];
    let err = '';
    p.stdout.on('data', (d) => out.push(d));
    p.stderr.on('data', (d) => { if (err.length < 4000) err += d; });
    p.on('error', reject);
    p.on('close', (code) => {
      const ms = performance.now() - t0;
      // grep and rg exit 1 when nothing matched
      if (code !== 0 && code !== 1) return reject(new Error(`${command} ${argv.join(' ')} exited ${code}: ${err.slice(0, 400)}`));
      resolve({ ms, stdout: Buffer.concat(out).toString('latin1') });
    });
  });
}

// Matching lines and files in `path:line:text` output (paths here hold no ':').
function countLines(stdout) {
  let lines = 0;
  const files = new Set();
  for (const line of stdout.split('\n')) {
    if (!line) continue;
    lines++;
    files.add(line.slice(0, line.indexOf(':')));
  }
  return { matches: lines, files: files.size };
}
const countPaths = (stdout) => ({ matches: stdout.split('\n').filter((l) => l && l !== 'No matches found').length });

const median = (xs) => { const s = [...xs].sort((a, b) => a - b); const m = s.length >> 1; return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2; };

// ---- the workload -----------------------------------------------------------------------------------
function fsServerInfo() {
  try {
    const require = createRequire(import.meta.url);
    const pj = require.resolve('@modelcontextprotocol/server-filesystem/package.json', { paths: [here] });
    return { dir: path.dirname(pj), version: JSON.parse(fs.readFileSync(pj, 'utf8')).version };
  } catch {
    return null;
  }
}

// Each workload: one cell per tool; run(tool) gives { ms, counts }. Ignore rules are off everywhere
// (the tree has no .git; rg -uu: no ignore files, hidden files searched; mcp-edit without
// --respect-gitignore and the tree without .mcp-editignore files), binary files skipped everywhere.
function workloads(root, mcp, fsServer) {
  const grepCell = (pattern, literal) => ({
    'mcp-edit': async () => {
      const { ms, result } = await mcp.call('grep', { pattern, path: '.', literal });
      const s = result.structuredContent;
      return { ms, counts: { matches: s.matches, files: s.files_with_matches } };
    },
    rg: async () => {
      const r = await runProcess('rg', ['-uu', '-n', '--no-heading', '--color=never', ...(literal ? ['-F'] : []), '-e', pattern, '.'], root);
      return { ms: r.ms, counts: countLines(r.stdout) };
    },
    'grep -rn': async () => {
      const r = await runProcess('grep', ['-rnI', literal ? '-F' : '-E', '-e', pattern, '.'], root);
      return { ms: r.ms, counts: countLines(r.stdout) };
    },
  });
  const list = [
    { id: 'grep_literal', label: 'grep literal `EXPORT_SYMBOL_GPL`', cells: grepCell('EXPORT_SYMBOL_GPL', true) },
    { id: 'grep_alternation', label: 'grep regex `(kmalloc|kzalloc|kcalloc)\\(`', cells: grepCell('(kmalloc|kzalloc|kcalloc)\\(', false) },
    { id: 'grep_rare', label: 'grep rare word `shenanigans`', cells: grepCell('shenanigans', false) },
    {
      id: 'find_c', label: 'find `**/*.c`', cells: {
        'mcp-edit': async () => {
          const { ms, result } = await mcp.call('find', { pattern: '**/*.c', path: '.', include_hidden: true });
          return { ms, counts: { matches: result.structuredContent.total } };
        },
        rg: async () => {
          const r = await runProcess('rg', ['-uu', '--files', '-g', '*.c', '.'], root);
          return { ms: r.ms, counts: countPaths(r.stdout) };
        },
        'GNU find': async () => {
          const r = await runProcess('find', ['.', '-type', 'f', '-name', '*.c'], root);
          return { ms: r.ms, counts: countPaths(r.stdout) };
        },
        ...(fsServer && {
          'server-filesystem': async () => {
            const { ms, result } = await fsServer.call('search_files', { path: root, pattern: '**/*.c' });
            return { ms, counts: countPaths(result.content[0].text) };
          },
        }),
      },
    },
    {
      id: 'list_depth3', label: 'list depth 3', cells: {
        'mcp-edit': async () => {
          const { ms, result } = await mcp.call('list', { path: '.', depth: 3, include_hidden: true });
          const s = result.structuredContent;
          return { ms, counts: { shown: s.shown, more_files: s.more_files, more_folders: s.more_folders } };
        },
        'GNU find': async () => {
          const r = await runProcess('find', ['.', '-mindepth', '1', '-maxdepth', '3'], root);
          return { ms: r.ms, counts: countPaths(r.stdout) };
        },
        ...(fsServer && {
          // directory_tree has no depth: it always returns the whole tree as JSON.
          'server-filesystem': async () => {
            const { ms, result } = await fsServer.call('directory_tree', { path: root });
            return { ms, counts: { whole_tree_json_bytes: result.content[0].text.length } };
          },
        }),
      },
    },
  ];
  return list;
}

async function main() {
  const root = tree();
  if (!fs.existsSync(root)) throw new Error(`${root} does not exist`);
  const rgVersion = spawnSync('rg', ['--version'], { encoding: 'utf8' });
  if (rgVersion.status !== 0) throw new Error('rg (Debian package ripgrep) is required: apt-get install ripgrep');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-edit-search-'));
  const bin = path.join(tmp, 'mcp-edit');  // a copy, so a rebuild during the run cannot swap it
  fs.copyFileSync(process.env.MCP_EDIT_BIN || path.join(repo, 'build', 'mcp-edit'), bin);
  fs.chmodSync(bin, 0o755);
  const mcp = new Server(bin, ['--root', root, '--approval', 'auto', '--log-level', 'off'], root);
  await mcp.initialize();
  const info = args.has('--no-peers') ? null : fsServerInfo();
  let fsServer = null;
  if (info) {
    fsServer = new Server(process.execPath, [path.join(info.dir, 'dist', 'index.js'), root], root);
    await fsServer.initialize();
  } else if (!args.has('--no-peers')) {
    log('search: server-filesystem is not installed (scripts/bench installs it); left out');
  }
  const files = spawnSync('find', ['.', '-type', 'f'], { cwd: root, encoding: 'utf8', maxBuffer: 1 << 28 }).stdout.split('\n').filter(Boolean).length;
  const bytes = Number(spawnSync('du', ['-sb', '.'], { cwd: root, encoding: 'utf8' }).stdout.split('\t')[0]);
  log(`search: ${root}: ${files} files, ${(bytes / 2 ** 20).toFixed(0)} MiB; ${RUNS} runs per cell after a warm-up`);

  const results = [];
  for (const w of workloads(root, mcp, fsServer)) {
    const cells = {};
    const tools = Object.keys(w.cells);
    // Warm-up (page cache, JIT, the servers' first call), then the runs interleaved tool by tool,
    // so load from elsewhere on the machine falls on every tool alike.
    const counts = {};
    for (const t of tools) counts[t] = (await w.cells[t]()).counts;
    const times = Object.fromEntries(tools.map((t) => [t, []]));
    for (let i = 0; i < RUNS; i++) {
      for (const t of tools) {
        if (t === 'server-filesystem' && i >= SLOW_RUNS) continue;
        const r = await w.cells[t]();
        if (JSON.stringify(r.counts) !== JSON.stringify(counts[t])) throw new Error(`${w.id} ${t}: counts changed between runs`);
        times[t].push(r.ms);
      }
    }
    for (const t of tools) cells[t] = { median_ms: median(times[t]), runs: times[t], counts: counts[t] };
    const ratio = cells.rg ? cells['mcp-edit'].median_ms / cells.rg.median_ms : null;
    results.push({ id: w.id, label: w.label, cells, mcp_edit_vs_rg: ratio });
    log(`search: ${w.id}: ` + tools.map((t) => `${t} ${cells[t].median_ms.toFixed(0)} ms ${JSON.stringify(counts[t])}`).join(' | '));
  }
  await mcp.stop();
  if (fsServer) await fsServer.stop();
  fs.rmSync(tmp, { recursive: true, force: true });

  const machine = `${os.cpus()[0]?.model ?? 'cpu'} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GiB, ${os.type()} ${os.release()}`;
  const out = {
    date: new Date().toISOString(), machine, tree: root, files, bytes, runs: RUNS,
    rg: rgVersion.stdout.split('\n')[0], filesystem_server: info?.version ?? null, workloads: results,
  };
  fs.writeFileSync(OUT, JSON.stringify(out, null, 2) + '\n');

  const columns = ['mcp-edit', 'rg', 'grep -rn', 'GNU find', 'server-filesystem'];
  const fmtCounts = (c) => Object.entries(c).map(([k, v]) => `${k} ${Number(v).toLocaleString('en-US')}`).join(', ');
  const lines = [
    `Search on ${path.basename(path.dirname(root))}/${path.basename(root)} (${files.toLocaleString('en-US')} files, ${(bytes / 2 ** 20).toFixed(0)} MiB), warm cache, median of ${RUNS} (server-filesystem ${SLOW_RUNS}); ${machine}`,
    '',
    `| workload | ${columns.join(' | ')} | mcp-edit ÷ rg |`,
    `|---|${columns.map(() => '---|').join('')}---|`,
  ];
  for (const r of results) {
    const cell = (t) => (r.cells[t] ? `${r.cells[t].median_ms.toFixed(0)} ms` : '–');
    lines.push(`| ${r.label.replaceAll('|', '\\|')} | ${columns.map(cell).join(' | ')} | ${r.mcp_edit_vs_rg ? r.mcp_edit_vs_rg.toFixed(2) + '×' : '–'} |`);
  }
  lines.push('', '| workload | result counts |', '|---|---|');
  for (const r of results)
    lines.push(`| ${r.label.replaceAll('|', '\\|')} | ${Object.entries(r.cells).map(([t, c]) => `${t}: ${fmtCounts(c.counts)}`).join('; ')} |`);
  process.stdout.write(lines.join('\n') + '\n');
}

main().catch((e) => { log(`search: ${e.stack || e}`); process.exit(1); });
