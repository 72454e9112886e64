// What every host test shares: where mcp-edit is, a scratch HOME and project per run, the
// environment that keeps a host offline and quiet, a recording HTTP server the protocol mocks
// build on, the model's script (a tool call per step, then a final answer), and running a host
// non-interactively with a bound on its time.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '..', '..');
export const BINARY = path.resolve(process.env.MCP_EDIT_BINARY || path.join(REPO, 'build', 'mcp-edit'));
export const BIN = (name) => path.join(HERE, 'node_modules', '.bin', name);

export function requireBinary() {
  assert.ok(fs.existsSync(BINARY), `mcp-edit binary not found at ${BINARY}: build it or set MCP_EDIT_BINARY`);
}

const tempDirs = [];
process.on('exit', () => {
  if (process.env.MCP_HOSTS_KEEP) return;
  for (const d of tempDirs) {
    try { fs.rmSync(d, { recursive: true, force: true }); } catch { /* best effort */ }
  }
});

/** Fixture files with the bytes that peers get wrong; name -> Buffer. */
export function fixtures() {
  return {
    'notes.txt': Buffer.from('alpha line\nbeta line\ngamma line\n'),
    'crlf.txt': Buffer.from('one\r\ntwo\r\nthree\r\n'),
    'latin1.txt': Buffer.from('caf\xe9 au lait\nplain\n', 'latin1'),
    'no-final-newline.txt': Buffer.from('first\nsecond'),
  };
}

/**
 * A fresh scratch area: `home` (the host's HOME, nothing of the real user's in it) and
 * `project` (the working directory and mcp-edit's --root) holding fixtures(). Both realpath'ed.
 */
export function scratch(prefix = 'mcp-edit-host-') {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  tempDirs.push(base);
  const home = path.join(base, 'home');
  const project = path.join(base, 'project');
  fs.mkdirSync(home);
  fs.mkdirSync(project);
  for (const [name, bytes] of Object.entries(fixtures())) fs.writeFileSync(path.join(project, name), bytes);
  return { base, home, project };
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
          res.writeHead(404, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ error: { message: `mock model: no route for ${req.method} ${req.url}` } }));
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

/**
 * Runs a host to completion with no stdin: {code, signal, stdout, stderr}. Killed (whole process
 * group) after `timeoutMs`, and then `timedOut` is true.
 */
export function runHost(command, args, { env, cwd, timeoutMs = 120000, input } = {}) {
  return new Promise((resolve) => {
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
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, timedOut });
    });
  });
}

/** A failure message that shows what the host handed its model. */
export function shown(script) {
  return script.seen.map((s) => `--- tool result of step ${s.step} ---\n${s.text}`).join('\n') || '(no tool result reached the model)';
}

/** The mcp-edit command line for a host config: the binary, --root, --no-fsync, extra flags. */
export function serverArgs(root, extra = []) {
  return ['--root', root, '--no-fsync', ...extra];
}
