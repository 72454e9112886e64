// What every host test shares: where mcp-edit is, a scratch HOME and project per run, the
// environment that keeps a host offline and quiet, a recording HTTP server the protocol mocks
// build on, the model's script (a tool call per step, then a final answer) and the calls it
// usually makes, running a host non-interactively with a bound on its time (runScripted: one
// whole scripted run, with a failure message that shows what the model saw and what the host
// printed), mcp-edit's --log-file, a stdio recorder that logs every JSON-RPC line between a
// client and mcp-edit, the watcher that records how the mcp-edit a host started ended (its exit
// status, the signals the host sent, its stderr and log: serverEnded), mcp-edit's own reply to one
// call (no host in between), and reading what the model reads as is or JSON-escaped.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import readline from 'node:readline';
import { fileURLToPath } from 'node:url';

/** This directory (tests/hosts). */
export const HERE = path.dirname(fileURLToPath(import.meta.url));
/** The repository's top directory. */
export const REPO = path.resolve(HERE, '..', '..');
/** The mcp-edit binary under test: $MCP_EDIT_BINARY, else build/mcp-edit. */
export const BINARY = path.resolve(process.env.MCP_EDIT_BINARY || path.join(REPO, 'build', 'mcp-edit'));
/** A host's executable, as installed (pinned) in node_modules/.bin. */
export const BIN = (name) => path.join(HERE, 'node_modules', '.bin', name);

/** Fails unless the mcp-edit binary is there. */
export function requireBinary() {
  assert.ok(fs.existsSync(BINARY), `mcp-edit binary not found at ${BINARY}: build it or set MCP_EDIT_BINARY`);
}

/** Waits (up to 60 s) for the binary, which another engineer may be rebuilding right now; then requireBinary(). */
export async function waitForBinary() {
  for (let i = 0; i < 60 && !fs.existsSync(BINARY); i++) await new Promise((r) => setTimeout(r, 1000));
  requireBinary();
}

const tempDirs = [];
process.on('exit', () => {
  if (process.env.MCP_HOSTS_KEEP) return;
  for (const d of tempDirs) {
    try { fs.rmSync(d, { recursive: true, force: true }); } catch { /* best effort */ }
  }
});

// ---------------------------------------------------------------------------------------------
// The files, and what the model does with them.

/** Fixture files with the bytes that peers get wrong; name -> Buffer. */
export function fixtures() {
  return {
    'notes.txt': Buffer.from('alpha line\nbeta line\ngamma line\n'),
    'crlf.txt': Buffer.from('one\r\ntwo\r\nthree\r\n'),
    'latin1.txt': Buffer.from('caf\xe9 au lait\nplain\n', 'latin1'),
    'no-final-newline.txt': Buffer.from('first\nsecond'),
  };
}

/** crlf.txt after the "edit" call of modelCalls(), byte for byte. */
export const CRLF_EDITED = Buffer.from('one\r\nTWO\r\nthree\r\n');

/** mcp-edit's thirteen tools, in the order it lists them. */
export const TOOLS = ['read', 'edit', 'multiedit', 'write', 'insert', 'apply_diff', 'undo', 'changes',
  'list', 'find', 'grep', 'move', 'delete'];

/** A numbered line as `read` shows it: the number right-aligned in 6, a tab, the line. */
export const numbered = (n, line) => `${String(n).padStart(6)}\t${line}`;
/**
 * A numbered line as `read`'s structuredContent has it for a host that shows its model only that
 * JSON (Claude Code, Codex): the number unpadded, a tab, the line.
 */
export const numberedUnpadded = (n, line) => `${n}\t${line}`;

/** The lines of a text. */
export const lines = (text) => text.split('\n');

/**
 * The model's usual tool calls ({tool, args}), picked by name, with file paths under `dir` ('' leaves
 * them relative): "read" reads notes.txt, "edit" turns crlf.txt's "two" into "TWO", "missing" is an
 * edit of crlf.txt whose old_string does not occur.
 */
export function modelCalls(dir, ...names) {
  const at = (name) => path.join(dir, name);
  const calls = {
    read: { tool: 'read', args: { file_path: at('notes.txt') } },
    edit: { tool: 'edit', args: { file_path: at('crlf.txt'), old_string: 'two', new_string: 'TWO' } },
    missing: { tool: 'edit', args: { file_path: at('crlf.txt'), old_string: 'no such text anywhere', new_string: 'x' } },
    changes: { tool: 'changes', args: {} },
  };
  return names.map((n) => calls[n]);
}

/** The bytes of `name` in the project `project`. */
export const projectFile = (project, name) => fs.readFileSync(path.join(project, name));

/**
 * A fresh scratch area: `home` (the host's HOME, nothing of the real user's in it), `project`
 * (the working directory and mcp-edit's --root) holding fixtures(), and `elsewhere` (an empty
 * directory beside the project, outside --root). All realpath'ed.
 */
export function scratch(prefix = 'mcp-edit-host-') {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  tempDirs.push(base);
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  const elsewhere = path.join(base, 'elsewhere');
  for (const dir of [home, project, elsewhere]) fs.mkdirSync(dir);
  for (const [name, bytes] of Object.entries(fixtures())) fs.writeFileSync(path.join(project, name), bytes);
  return { base, home, project, elsewhere };
}

/**
 * The environment a host runs in: a scratch HOME (and XDG dirs under it), telemetry, update
 * checks and auto-updates off, no proxies, and nothing of the caller's API keys or config.
 */
export function hostEnv(home, extra = {}) {
  const keep = ['PATH', 'LANG', 'LC_ALL', 'TERM', 'TMPDIR', 'SYSTEMROOT'];
  const env = {};
  for (const k of keep) if (process.env[k] !== undefined) env[k] = process.env[k];
  Object.assign(env, {
    HOME: home,
    USERPROFILE: home,
    XDG_CONFIG_HOME: path.join(home, '.config'),
    XDG_DATA_HOME: path.join(home, '.local', 'share'),
    XDG_CACHE_HOME: path.join(home, '.cache'),
    XDG_STATE_HOME: path.join(home, '.local', 'state'),
    CI: '1',
    NO_COLOR: '1',
    DO_NOT_TRACK: '1',
    DISABLE_TELEMETRY: '1',
    DISABLE_AUTOUPDATER: '1',
    DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    GEMINI_TELEMETRY_ENABLED: 'false',
    OPENCODE_DISABLE_AUTOUPDATE: '1',
    OPENCODE_DISABLE_SHARE: '1',
    NO_PROXY: '*',
  });
  return Object.assign(env, extra);
}

// ---------------------------------------------------------------------------------------------
// The mock model: an HTTP server and the script it plays.

/** Answers an HTTP request with `value` as JSON. */
export function sendJson(res, value, status = 200) {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(value));
}

/**
 * A recording HTTP server on 127.0.0.1 with an ephemeral port. `handle(req, body, res)` answers
 * each request (`body` is the parsed JSON, or the raw string when it is not JSON); every request
 * is kept in `requests` as {method, url, headers, body}. Unhandled paths get a 404 naming them.
 */
export async function startHttp(handle) {
  const requests = [];
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', async () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body = raw;
      try { body = raw ? JSON.parse(raw) : null; } catch { /* not JSON */ }
      requests.push({ method: req.method, url: req.url, headers: req.headers, body });
      try {
        const handled = await handle(req, body, res);
        if (handled === false && !res.headersSent) {
          sendJson(res, { error: { message: `mock model: no route for ${req.method} ${req.url}` } }, 404);
        }
      } catch (e) {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: `mock model failed: ${e.stack || e}` } }));
      }
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise((resolve) => { server.closeAllConnections?.(); server.close(() => resolve()); }),
  };
}

/**
 * What the mock model does: `steps` is a list of {tool, args} (call the host's tool whose name
 * ends with `tool`, e.g. "read" matches "mcp__edit__read") followed by a final answer. The step
 * is chosen by how many tool results the conversation already holds, so side requests a host
 * makes (titles, summaries) do not advance it. Every tool result the host hands back is recorded
 * in `seen` as {step, text} (text: exactly what the model would read, stringified).
 */
export class ModelScript {
  constructor(steps, finalText = 'Done.') {
    this.steps = steps;
    this.finalText = finalText;
    this.seen = [];
  }
  /** The step after `resultsSoFar` tool results: {tool, args} or {final}. */
  next(resultsSoFar) {
    if (resultsSoFar < this.steps.length) return this.steps[resultsSoFar];
    return { final: this.finalText };
  }
  record(step, text) {
    if (!this.seen.some((s) => s.step === step && s.text === text)) this.seen.push({ step, text });
  }
}

/** The one name in `names` that is the MCP tool `tool` of server `server`, as a host spells it. */
export function pickTool(names, tool, server = 'edit') {
  const hits = names.filter((n) => n === tool || n.endsWith(`__${tool}`) || n.endsWith(`_${tool}`) ||
    n === `${server}.${tool}` || n.endsWith(`:${tool}`));
  // The server's own spelling (mcp__edit__read, mcp_edit_read, edit_read, edit.read) beats a host's
  // built-in tool of the same name (opencode has its own `edit`).
  const qualified = new RegExp(`(^|_|\\.)${server}(__|_|\\.|:)${tool}$`);
  const exact = hits.filter((n) => n !== tool && qualified.test(n));
  const chosen = exact.length ? exact : hits;
  assert.ok(chosen.length >= 1, `no tool named like "${tool}" among what the host offered its model: ${names.join(', ')}`);
  return chosen.sort((a, b) => a.length - b.length)[0];
}

// ---------------------------------------------------------------------------------------------
// Running a host.

/** The mcp-edit command line for a host config: the binary, --root, --no-fsync, extra flags. */
export function serverArgs(root, extra = []) {
  return ['--root', root, '--no-fsync', ...extra];
}

/**
 * mcp-edit's log in `dir`: `file`, and `flags` (--log-file, plus --log-level `level` when given)
 * to add to its command line.
 */
export function serverLog(dir, level) {
  const file = path.join(dir, 'mcp-edit.log');
  return { file, flags: ['--log-file', file, ...(level ? ['--log-level', level] : [])] };
}

/** A text file's contents, or '' when it was never written. */
export function textIfAny(file) {
  return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
}

/**
 * Runs a host to completion with no stdin: {code, signal, stdout, stderr, timedOut, ms}. Killed
 * (whole process group) after `timeoutMs`, and then `timedOut` is true; `ms` is how long it ran.
 * Rejects at once when the host cannot be started (not installed: the error names the command).
 */
export function runHost(command, args, { env, cwd, timeoutMs = 120000, input } = {}) {
  return new Promise((resolve, reject) => {
    const started = Date.now();
    const child = spawn(command, args, { env, cwd, stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    let timedOut = false;
    child.stdout.on('data', (d) => { stdout += d; });
    child.stderr.on('data', (d) => { stderr += d; });
    if (input !== undefined) child.stdin.end(input);
    else child.stdin.end();
    const timer = setTimeout(() => {
      timedOut = true;
      try { process.kill(-child.pid, 'SIGKILL'); } catch { /* gone */ }
    }, timeoutMs);
    let spawnError;
    child.on('error', (err) => {
      spawnError = err;
      clearTimeout(timer);
      reject(new Error(`cannot start the host ${command}: ${err.message}` +
        (err.code === 'ENOENT' ? ' (not installed: scripts/setup --test installs the hosts into tests/hosts/node_modules)' : '')));
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (!spawnError) resolve({ code, signal, stdout, stderr, timedOut, ms: Date.now() - started });
    });
  });
}

/**
 * One headless run of the host `host` (its binary BIN(host)) against a fresh scratch area
 * (scratch(`mcp-edit-${host}-`)), the model playing `steps(project)` and then `finalText`.
 * `startMock(script)` starts the mock model. `setup({...area, mock})` writes the host's config
 * and returns {args, env, log?, wireLog?, watch?, allowLog?}: the host's arguments, its variables
 * on top of hostEnv(), the serverLog() mcp-edit writes, the recorder's wire log and the
 * watchedServer()'s watch, when there are, and regular expressions for log messages the run
 * provokes on purpose (see serverEnded; with `outside`, ROOTS_OUTSIDE_WARNING is one). The host runs in
 * the project, or with `outside` in the area's `elsewhere`. Resolves to {s (the area), script,
 * mock, run (runHost's result), cwd, serverLog (its text), wire (readWire()), serverEnd (what
 * serverEnded() found wrong, [] when nothing; undefined without a watch), context()}, where
 * context() is a failure message: what the model saw, the host's exit and output, the model
 * requests, the log and wire tails, and `notes(mock)` (lines a host test adds).
 */
export async function runScripted({ host, steps, finalText, startMock, setup, outside = false, timeoutMs = 60000, notes }) {
  requireBinary();
  const s = scratch(`mcp-edit-${host}-`);
  const script = new ModelScript(steps(s.project), finalText);
  const mock = await startMock(script);
  const cwd = outside ? s.elsewhere : s.project;
  let launch;
  let run;
  try {
    launch = setup({ ...s, mock });
    run = await runHost(BIN(host), launch.args, { env: hostEnv(s.home, launch.env), cwd, timeoutMs });
  } finally {
    await mock.close();
  }
  const log = launch.log ? textIfAny(launch.log.file) : '';
  const wire = launch.wireLog ? readWire(launch.wireLog) : [];
  // A host run outside --root sends that directory as its root, and mcp-edit warns that it keeps --root.
  const allow = [...(launch.allowLog ?? []), ...(outside ? [ROOTS_OUTSIDE_WARNING] : [])];
  const serverEnd = launch.watch ? await serverEnded(launch.watch, { allow }) : undefined;
  const context = () => [
    shown(script),
    `--- ${host} exit ${run.code}${run.timedOut ? ' (timed out)' : ''} after ${run.ms} ms, cwd ${cwd} ---`,
    `--- ${host} stdout ---\n${stdoutGist(run.stdout)}`,
    `--- ${host} stderr (tail) ---\n${tail(run.stderr, 2500)}`,
    `--- model requests ---\n${mock.requests.map((q) => `${q.method} ${q.url}`).join(', ')}`,
    ...(launch.log ? [`--- mcp-edit log (tail) ---\n${tail(log) || '(empty)'}`] : []),
    ...(launch.wireLog ? [`--- wire (last lines) ---\n${wireTail(wire)}`] : []),
    ...(notes ? notes(mock) : []),
  ].join('\n');
  return { s, script, mock, run, cwd, serverLog: log, wire, serverEnd, context };
}

/** Fails unless the mcp-edit that runScripted()'s host started (through watchedServer) ended cleanly (serverEnded). */
export function assertCleanEnd(r) {
  assert.ok(r.serverEnd, 'this run did not start mcp-edit through watchedServer(), so how it ended is unknown');
  assert.deepEqual(r.serverEnd, [], `mcp-edit did not end cleanly:\n  ${r.serverEnd.join('\n  ')}\n${r.context()}`);
}

/** The warning mcp-edit logs when a client's roots lie outside its --root (which it keeps). */
export const ROOTS_OUTSIDE_WARNING = /^The client's roots \(.*\) are outside this server's --root \(.*\); --root is used\.$/;

/** Rejects when `promise` takes longer than `ms`; `what` (a text, or a function giving it) names it. */
export function bounded(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${typeof what === 'function' ? what() : what}: no answer within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

// ---------------------------------------------------------------------------------------------
// Failure messages.

/** A failure message that shows what the host handed its model. */
export function shown(script) {
  return script.seen.map((s) => `--- tool result of step ${s.step} ---\n${s.text}`).join('\n') || '(no tool result reached the model)';
}

/** The last `chars` characters of a text ("…" in front when cut). */
export function tail(text, chars = 1500) {
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

/** A host's stdout for a failure message: its JSON answer without the token statistics, or the tail. */
export function stdoutGist(stdout) {
  try {
    const { stats, usage, modelUsage, ...gist } = JSON.parse(stdout);
    return JSON.stringify(gist);
  } catch {
    return tail(stdout);
  }
}

// ---------------------------------------------------------------------------------------------
// The stdio recorder: mcp-edit behind a transparent pass-through that logs the JSON-RPC lines.

/**
 * Run as `node -e RECORDER LOG BINARY ARGS...`: starts the server, passes bytes both ways unchanged
 * and appends every JSON-RPC line to LOG as {dir, line} (dir "c2s" client to server, "s2c" server
 * to client). It forwards SIGTERM/SIGINT and exits with the server.
 */
const RECORDER = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const [log, bin, ...args] = process.argv.slice(1);
const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const tap = (dir) => { let buf = ''; return (chunk) => {
  buf += chunk; let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (line.trim()) fs.appendFileSync(log, JSON.stringify({ dir, line }) + '\\n');
  } }; };
const up = tap('c2s'); const down = tap('s2c');
process.stdin.setEncoding('utf8'); child.stdout.setEncoding('utf8');
child.stdin.on('error', () => {});
process.stdin.on('data', (c) => { up(c); child.stdin.write(c); });
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (c) => { down(c); process.stdout.write(c); });
child.on('exit', (code) => process.exit(code ?? 1));
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => child.kill(s));
`;

/**
 * mcp-edit with `args` behind the recorder, for a client's stdio config: {command, args, wireLog,
 * watch} (the wire log in `dir`; the recorder starts it through the watcher, see watchedServer).
 */
export function recordedServer(dir, args) {
  const wireLog = path.join(dir, 'wire.jsonl');
  const watched = watchedServer(dir, args);
  return { command: process.execPath, args: ['-e', RECORDER, wireLog, watched.command, ...watched.args], wireLog, watch: watched.watch };
}

// ---------------------------------------------------------------------------------------------
// How the server a host started ended: its exit status and what it logged.
// Observed 2026-11-29 (the pinned versions): Claude Code ends mcp-edit with SIGINT; Codex, Gemini
// CLI and the AI SDK with SIGTERM; opencode, Qwen Code and LangChain close its stdin. None uses
// SIGKILL; a host that did would show as a start with no exit record (serverEnded says so).

const WATCHER = path.join(HERE, 'server_watch.mjs');

/**
 * mcp-edit with `args` behind server_watch.mjs, for a host's stdio config: {command, args, watch}.
 * `watch` ({status, logFile}: the watcher's record in `dir`, and the --log-file in `args` if any)
 * is what serverEnded() reads.
 */
export function watchedServer(dir, args) {
  const status = path.join(dir, 'mcp-edit-status.jsonl');
  const at = args.indexOf('--log-file');
  const logFile = at >= 0 ? args[at + 1] : undefined;
  return { command: process.execPath, args: [WATCHER, status, BINARY, ...args], watch: { status, logFile } };
}

/** The watcher's records: [{watcher, pid, stderr, signals: [...], exit?: {code, signal, error}}], by start. */
function watchedRuns(status) {
  const runs = new Map();
  for (const line of textIfAny(status).split('\n').filter(Boolean)) {
    const e = JSON.parse(line);
    if (!runs.has(e.watcher)) runs.set(e.watcher, { watcher: e.watcher, signals: [] });
    const run = runs.get(e.watcher);
    if (e.event === 'start') Object.assign(run, { pid: e.pid, stderr: e.stderr });
    else if (e.event === 'signal') run.signals.push(e.signal);
    else if (e.event === 'exit') run.exit = { code: e.code, signal: e.signal, error: e.error };
  }
  return [...runs.values()];
}

const LOG_LINE = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3} (trace|debug|info|warning|error|critical) (.*)$/;

/**
 * The lines of mcp-edit's log or stderr that are wrong: a log line at warning, error or critical
 * (unless its message matches one of `allow`), and in stderr any line that is not a log line
 * (a sanitizer's report, a crash message, a stray print). The rule of tests/transcripts/run.mjs.
 */
function alarming(text, what, allow) {
  const bad = [];
  for (const line of text.split(/\r?\n/)) {
    if (line === '') continue;
    const m = LOG_LINE.exec(line);
    if (m && ['trace', 'debug', 'info'].includes(m[1])) continue;
    if (m && allow.some((re) => re.test(m[2]))) continue;
    bad.push(m ? `${what} has a line at ${m[1]}: ${line}` : `${what} has a line that is not a log line (sanitizer? crash?): ${line}`);
  }
  return bad;
}

/**
 * Waits (up to `timeoutMs`) until every mcp-edit the host started through watchedServer() has
 * ended, then returns what is wrong with how they ended: [] when each one exited 0 and its stderr
 * and log (watch.logFile) hold no line alarming() finds. A server the host stopped by a signal
 * the watcher saw (SIGTERM, SIGINT: mcp-edit exits 0 on them) must still have exited 0. `allow`:
 * regular expressions for warning/error messages a test provokes on purpose.
 */
export async function serverEnded(watch, { allow = [], timeoutMs = 15000 } = {}) {
  const deadline = Date.now() + timeoutMs;
  let runs = watchedRuns(watch.status);
  while (runs.some((r) => !r.exit) && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 50));
    runs = watchedRuns(watch.status);
  }
  const problems = [];
  if (runs.length === 0) problems.push(`the host never started mcp-edit (no record in ${watch.status})`);
  for (const r of runs) {
    const who = `mcp-edit pid ${r.pid ?? '?'} (watcher ${r.watcher}${r.signals.length ? `, the host sent ${r.signals.join(', ')}` : ''})`;
    if (!r.exit) {
      problems.push(`${who} has no exit record ${timeoutMs} ms after the host ended: still running, or the host ` +
        'killed the watcher with SIGKILL (which cannot be recorded)');
    } else if (r.exit.error) {
      problems.push(`${who}: ${r.exit.error}`);
    } else if (r.exit.code !== 0) {
      problems.push(`${who} ended with ${r.exit.signal ? `signal ${r.exit.signal}` : `exit status ${r.exit.code}`}, not exit 0`);
    }
    if (r.stderr) problems.push(...alarming(textIfAny(r.stderr), `${who}: stderr`, allow));
  }
  if (watch.logFile) problems.push(...alarming(textIfAny(watch.logFile), `the mcp-edit log ${watch.logFile}`, allow));
  return problems;
}

/** Fails, showing `context` (a text or a function giving it), unless serverEnded() finds nothing wrong. */
export async function assertServerEnded(watch, context = '', options = {}) {
  const problems = await serverEnded(watch, options);
  assert.deepEqual(problems, [], `mcp-edit did not end cleanly:\n  ${problems.join('\n  ')}\n${typeof context === 'function' ? context() : context}`);
}

/** The recorded wire: [{dir, msg}] in order (msg {unparsed: line} for a line that is not JSON). */
export function readWire(wireLog) {
  return textIfAny(wireLog).split('\n').filter(Boolean).map((l) => {
    const { dir, line } = JSON.parse(l);
    let msg;
    try { msg = JSON.parse(line); } catch { msg = { unparsed: line }; }
    return { dir, msg };
  });
}

/** The requests or notifications on the wire in one direction with one method. */
export const onWire = (wire, dir, method) => wire.filter((w) => w.dir === dir && w.msg?.method === method);

/** The tools/call requests on the wire, each with its response: [{request, response}]. */
export function toolCalls(wire) {
  const calls = [];
  for (const { dir, msg } of wire) {
    if (dir === 'c2s' && msg.method === 'tools/call') calls.push({ request: msg, response: undefined });
    if (dir === 's2c' && msg.id !== undefined && !msg.method) {
      const call = calls.find((c) => c.request.id === msg.id && c.response === undefined);
      if (call) call.response = msg;
    }
  }
  return calls;
}

/** The wire's last lines, for failure messages. */
export function wireTail(wire, count = 8) {
  return wire.slice(-count).map(({ dir, msg }) => `${dir} ${JSON.stringify(msg).slice(0, 600)}`).join('\n');
}

// ---------------------------------------------------------------------------------------------
// mcp-edit itself, with no host in between.

/**
 * The reply mcp-edit itself gives to one tools/call: the server is started with
 * serverArgs(root, flags), initialized (2025-11-25, no client capabilities), asked, and ended.
 * Resolves to the JSON-RPC `result` (or rejects with the `error`).
 */
async function referenceReply(root, name, args, flags = ['--approval', 'auto'], timeoutMs = 20000) {
  const child = spawn(BINARY, serverArgs(root, flags), { stdio: ['pipe', 'pipe', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (d) => { stderr += d; });
  const reply = new Promise((resolve, reject) => {
    child.on('error', reject);
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      let msg;
      try { msg = JSON.parse(line); } catch { return; }
      if (msg.id !== 2) return;
      if (msg.error) reject(new Error(`mcp-edit error reply: ${JSON.stringify(msg.error)}`));
      else resolve(msg.result);
    });
  });
  const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
  send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'reference', version: '1' } } });
  send({ method: 'notifications/initialized' });
  send({ id: 2, method: 'tools/call', params: { name, arguments: args } });
  try {
    return await bounded(reply, timeoutMs, () => `mcp-edit's reply to ${name} (stderr: ${stderr})`);
  } catch (e) {
    child.kill('SIGKILL');
    throw e;
  } finally {
    child.stdin.end();
  }
}

/**
 * The error message (content[0].text) mcp-edit itself gives, under --approval auto, for the model
 * call `call` ({tool, args}), asserting that the reply is an error. The reference for "the whole
 * message reached the model" (an error text is not copied into the test).
 */
export async function referenceError(root, { tool, args }) {
  const reply = await referenceReply(root, tool, args);
  assert.equal(reply.isError, true, `mcp-edit asked directly did not fail: ${JSON.stringify(reply)}`);
  return reply.content[0].text;
}

// ---------------------------------------------------------------------------------------------
// Reading what the model reads.

/** What the model saw for step `step` (the first text recorded), or a failure showing r.context(). */
export function seenAt(r, step) {
  const hit = r.script.seen.find((x) => x.step === step);
  assert.ok(hit, `no tool result for step ${step} reached the model\n${r.context()}`);
  return hit.text;
}

/** `s` as it stands inside a JSON string (the quotes left off). */
export const jsonEscaped = (s) => JSON.stringify(s).slice(1, -1);

/** Does the model's text hold `s` either as is or JSON-escaped (inside a stringified object)? */
export const holds = (text, s) => text.includes(s) || text.includes(jsonEscaped(s));

/**
 * The text to match line patterns against: the text itself, plus, when it is JSON, every string
 * inside it, unescaped. The model reads the same characters either way; this only undoes the JSON
 * escaping of "\n"/"\t".
 */
export function readable(text) {
  let parsed;
  try { parsed = JSON.parse(text); } catch { return text; }
  const strings = [];
  const walk = (v) => {
    if (typeof v === 'string') strings.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(parsed);
  return [text, ...strings].join('\n');
}
