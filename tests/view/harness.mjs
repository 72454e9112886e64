// The browser harness of mcp-edit's review view (MCP Apps).
//
// Host.start() spawns the real mcp-edit binary over stdio (env MCP_EDIT_BINARY, default
// ../../build/mcp-edit) on a fresh temp root, serves a host page from 127.0.0.1 and opens it in
// headless Chromium (Debian's chromium-headless-shell through playwright-core). The page
// (host-page.mjs, bundled with the official AppBridge by esbuild at test time into a temp
// directory) is an MCP client that plays Claude Desktop; this file relays its newline JSON-RPC to
// the server: lines go up in ordered POST batches and come down as Server-Sent Events. (Not
// page.exposeFunction: Playwright installs exposed bindings in every frame, the view's sandboxed
// iframe included, which would hand the view a private line to the server.)
//
// Every message between a view and the host is validated here as it arrives: ui/* methods against
// @modelcontextprotocol/ext-apps' dist/src/generated/schema.json (McpUi*Request / Notification /
// Result), tools/call against the MCP schema of tests/e2e/mcp-schema; JSON-RPC envelopes, request
// directions and answered ids are checked too. Problems fail the test in Host.finish().
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import * as esbuild from 'esbuild';
import { chromium } from 'playwright-core';

export const HERE = path.dirname(fileURLToPath(import.meta.url));
export const REPO = path.resolve(HERE, '..', '..');
export const BINARY = process.env.MCP_EDIT_BINARY ? path.resolve(process.env.MCP_EDIT_BINARY) : path.join(REPO, 'build', 'mcp-edit');
export const CHROMIUM = process.env.MCP_EDIT_CHROMIUM || '/usr/bin/chromium-headless-shell';
export const MCP_SCHEMA_DIR = path.resolve(process.env.MCP_SCHEMA_DIR || path.join(REPO, 'tests', 'e2e', 'mcp-schema'));
export const SCREENSHOTS = process.env.MCP_EDIT_SCREENSHOTS ? path.resolve(process.env.MCP_EDIT_SCREENSHOTS) : null;
export const VIEW_URI = 'ui://mcp-edit/review.html';
export const UI_EXTENSION = 'io.modelcontextprotocol/ui';
export const MCP_APP_MIME = 'text/html;profile=mcp-app';

/** Claude Desktop's initialize params, exactly. */
export const CLAUDE_DESKTOP_INITIALIZE = Object.freeze({
  protocolVersion: '2025-11-25',
  capabilities: { extensions: { [UI_EXTENSION]: { mimeTypes: [MCP_APP_MIME] } } },
  clientInfo: { name: 'claude-ai', version: '0.1.0' },
});
export const ERAS = ['legacy', 'modern'];

const require = createRequire(import.meta.url);
export const show = (v) => JSON.stringify(v);
export const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const short = (s, n = 400) => (s.length > n ? s.slice(0, n) + `…(${s.length} chars)` : s);
const isObject = (v) => v !== null && typeof v === 'object' && !Array.isArray(v);

// ---------------------------------------------------------------------------------------------
// Temp dirs

const tempDirs = [];
process.on('exit', () => {
  if (process.env.MCP_VIEW_KEEP) return;
  for (const d of tempDirs) {
    try { fs.rmSync(d, { recursive: true, force: true }); } catch { /* best effort */ }
  }
});

export function makeTempDir(prefix = 'mcp-edit-view-') {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  tempDirs.push(dir);
  return dir;
}

// ---------------------------------------------------------------------------------------------
// Schemas: ext-apps' schema.json for ui/*, the MCP schema for tools/call

const UI_SCHEMA_FILE = path.join(path.dirname(require.resolve('@modelcontextprotocol/ext-apps/app-bridge')), 'generated', 'schema.json');

class Schemas {
  constructor() {
    this.fns = new Map();
    const ui = JSON.parse(fs.readFileSync(UI_SCHEMA_FILE, 'utf8'));
    this.ui = new Ajv2020({ strict: false, allErrors: true });
    addFormats(this.ui);
    // Each definition is a standalone document (its own $schema, and $defs its "#/$defs/..." refs
    // point to): compiled alone, not as a fragment of the file.
    this.uiDefs = ui.$defs;
    const mcpFile = path.join(MCP_SCHEMA_DIR, '2025-11-25', 'schema.json');
    if (fs.existsSync(mcpFile)) {
      const mcp = JSON.parse(fs.readFileSync(mcpFile, 'utf8'));
      this.mcp = new Ajv2020({ strict: false, allErrors: true });
      addFormats(this.mcp);
      this.mcp.addSchema(mcp, 'mcp');
    }
  }

  /** null when valid (or when the schema is not at hand for mcp:*), else the errors. */
  validate(def, value) {
    const [ns, name] = def.split(':');
    let fn = this.fns.get(def);
    if (!fn) {
      if (ns === 'mcp' && !this.mcp) return null;
      if (ns === 'ui') fn = this.uiDefs[name] && this.ui.compile(this.uiDefs[name]);
      else fn = this.mcp.getSchema(`mcp#/$defs/${name}`);
      assert.ok(fn, `no schema definition ${def}`);
      this.fns.set(def, fn);
    }
    if (fn(value)) return null;
    return (fn.errors || []).slice(0, 6).map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + show(e.params) : ''}`).join('; ');
  }
}

let schemasOnce;
export const schemas = () => (schemasOnce ??= new Schemas());

// Which side may send each method, and what its params and result must match. `EMPTY`: the
// result must be an object with nothing but _meta (ui/update-model-context answers EmptyResult).
const EMPTY = 'EMPTY';
export const UI_METHODS = {
  'ui/initialize': { from: 'view', req: 'ui:McpUiInitializeRequest', res: 'ui:McpUiInitializeResult' },
  'ui/message': { from: 'view', req: 'ui:McpUiMessageRequest', res: 'ui:McpUiMessageResult' },
  'ui/update-model-context': { from: 'view', req: 'ui:McpUiUpdateModelContextRequest', res: EMPTY },
  'ui/open-link': { from: 'view', req: 'ui:McpUiOpenLinkRequest', res: 'ui:McpUiOpenLinkResult' },
  'ui/download-file': { from: 'view', req: 'ui:McpUiDownloadFileRequest', res: 'ui:McpUiDownloadFileResult' },
  'ui/request-display-mode': { from: 'view', req: 'ui:McpUiRequestDisplayModeRequest', res: 'ui:McpUiRequestDisplayModeResult' },
  'ui/resource-teardown': { from: 'host', req: 'ui:McpUiResourceTeardownRequest', res: 'ui:McpUiResourceTeardownResult' },
  'ui/notifications/initialized': { from: 'view', note: 'ui:McpUiInitializedNotification' },
  'ui/notifications/size-changed': { from: 'view', note: 'ui:McpUiSizeChangedNotification' },
  'ui/notifications/request-teardown': { from: 'view', note: 'ui:McpUiRequestTeardownNotification' },
  'ui/notifications/sandbox-proxy-ready': { from: 'view', note: 'ui:McpUiSandboxProxyReadyNotification' },
  'ui/notifications/tool-input': { from: 'host', note: 'ui:McpUiToolInputNotification' },
  'ui/notifications/tool-input-partial': { from: 'host', note: 'ui:McpUiToolInputPartialNotification' },
  'ui/notifications/tool-result': { from: 'host', note: 'ui:McpUiToolResultNotification' },
  'ui/notifications/tool-cancelled': { from: 'host', note: 'ui:McpUiToolCancelledNotification' },
  'ui/notifications/host-context-changed': { from: 'host', note: 'ui:McpUiHostContextChangedNotification' },
  'ui/notifications/sandbox-resource-ready': { from: 'host', note: 'ui:McpUiSandboxResourceReadyNotification' },
  // MCP methods the view may use through the host (serverTools) and the common ones.
  'tools/call': { from: 'view', req: 'mcp:CallToolRequest', whole: true, res: 'mcp:CallToolResult' },
  'notifications/message': { from: 'view', note: 'mcp:LoggingMessageNotification', whole: true },
  ping: { from: 'either', res: EMPTY },
};

/**
 * Follows the messages between the host and one view, in order, and collects every way one breaks
 * ext-apps' schema, the JSON-RPC envelope rules, or the direction a method travels.
 */
export class UiChannelValidator {
  constructor(problems) {
    this.problems = problems;
    this.pending = new Map(); // `${view}|${from}|${id}` -> method
  }

  problem(entry, text) {
    this.problems.push(`${entry.dir} (view ${entry.view}) ${text}\n    message: ${short(show(entry.msg), 600)}`);
  }

  check(entry) {
    const m = entry.msg;
    const from = entry.dir === 'view→host' ? 'view' : 'host';
    if (!isObject(m)) return this.problem(entry, 'is not a JSON object');
    if (m.jsonrpc !== '2.0') this.problem(entry, `has jsonrpc ${show(m.jsonrpc)}, not "2.0"`);
    const keys = Object.keys(m);
    const allow = (allowed, what) => {
      const extra = keys.filter((k) => !allowed.includes(k));
      if (extra.length) this.problem(entry, `${what} has extra top-level keys ${show(extra)}`);
    };
    if (typeof m.method === 'string') {
      const spec = UI_METHODS[m.method];
      const isRequest = 'id' in m;
      allow(isRequest ? ['jsonrpc', 'id', 'method', 'params'] : ['jsonrpc', 'method', 'params'], isRequest ? 'request' : 'notification');
      const key = `${entry.view}|${from}|${show(m.id)}`;
      if (isRequest && this.pending.has(key)) this.problem(entry, `reuses the id ${show(m.id)} of a request still unanswered`);
      if (isRequest) this.pending.set(key, m.method);
      if (!spec) return this.problem(entry, `uses method ${show(m.method)}, which is neither an MCP Apps method nor one a view may use`);
      if (spec.from !== 'either' && spec.from !== from) {
        this.problem(entry, `${m.method} travels ${spec.from === 'view' ? 'view→host' : 'host→view'} only`);
      }
      if (isRequest) {
        if (!(typeof m.id === 'string' || Number.isInteger(m.id))) this.problem(entry, `request id ${show(m.id)} is neither a string nor an integer`);
        if (!spec.req && !spec.res) this.problem(entry, `${m.method} is a notification, sent as a request`);
      } else if (spec.req || (spec.res && !spec.note)) {
        this.problem(entry, `${m.method} is a request, sent as a notification (no id)`);
      }
      const def = isRequest ? spec.req : spec.note;
      if (def) {
        const value = spec.whole ? m : { method: m.method, ...('params' in m ? { params: m.params } : {}) };
        const err = schemas().validate(def, value);
        if (err) this.problem(entry, `${m.method} does not match ${def.replace(/^\w+:/, '')}: ${err}`);
      }
      return;
    }
    // A response: to a request the other side sent.
    const other = from === 'view' ? 'host' : 'view';
    const key = `${entry.view}|${other}|${show(m.id)}`;
    const method = this.pending.get(key);
    if (!method) return this.problem(entry, `answers id ${show(m.id)}, which no ${other}→${from} request used (or answers it twice)`);
    this.pending.delete(key);
    if ('error' in m) {
      allow(['jsonrpc', 'id', 'error'], 'error response');
      if (!isObject(m.error) || !Number.isInteger(m.error.code) || typeof m.error.message !== 'string') {
        this.problem(entry, 'error response without an integer code and a string message');
      }
      if (method !== 'tools/call' && UI_METHODS[method]) this.problem(entry, `${method} was answered with an error: ${show(m.error)}`);
      return;
    }
    allow(['jsonrpc', 'id', 'result'], 'result response');
    if (!isObject(m.result)) return this.problem(entry, `${method} result is not an object`);
    const spec = UI_METHODS[method];
    if (!spec) return; // an unknown method: already reported
    if (spec.res === EMPTY) {
      const extra = Object.keys(m.result).filter((k) => k !== '_meta');
      if (extra.length) this.problem(entry, `${method} must answer an empty result, got keys ${show(extra)}`);
    } else if (spec.res) {
      const err = schemas().validate(spec.res, m.result);
      if (err) this.problem(entry, `${method} result does not match ${spec.res.replace(/^\w+:/, '')}: ${err}`);
    }
  }

  /** Requests never answered (checked at the end). */
  unanswered() {
    return [...this.pending.entries()].map(([k, method]) => `${k}: ${method}`);
  }
}

// ---------------------------------------------------------------------------------------------
// The host page and the browser

let bundleOnce;
/** Bundles host-page.mjs with the AppBridge for the browser, into a temp directory (never committed). */
export function bundleHostPage() {
  bundleOnce ??= (async () => {
    const dir = makeTempDir('mcp-edit-view-bundle-');
    const outfile = path.join(dir, 'host-page.js');
    await esbuild.build({
      entryPoints: [path.join(HERE, 'host-page.mjs')],
      bundle: true,
      format: 'iife',
      platform: 'browser',
      target: 'chrome120',
      minify: true,
      outfile,
      logLevel: 'error',
      absWorkingDir: HERE,
    });
    return fs.readFileSync(outfile, 'utf8');
  })();
  return bundleOnce;
}

let browserOnce;
export function browser() {
  browserOnce ??= chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] });
  return browserOnce;
}

export async function closeBrowser() {
  if (!browserOnce) return;
  const b = await browserOnce;
  browserOnce = undefined;
  await b.close();
}

function hostHtml(config, script) {
  // </script> cannot occur in the JSON (< is escaped) nor in the minified bundle's strings
  // unescaped (esbuild escapes it).
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>mcp-edit view test host (Claude Desktop)</title>
<style>
  :root { color-scheme: light; --bg: #faf9f5; --fg: #1f1e1d; }
  :root[data-theme="dark"] { color-scheme: dark; --bg: #262624; --fg: #faf9f5; }
  body { margin: 0; padding: 16px; background: var(--bg); color: var(--fg); font: 14px system-ui, sans-serif; }
  #chat { width: 720px; display: flex; flex-direction: column; gap: 16px; }
  .label { font-size: 12px; opacity: .7; margin-bottom: 4px; }
  iframe { display: block; width: 720px; height: 120px; border: 1px solid #8884; border-radius: 8px; background: transparent; }
</style></head>
<body><div id="chat"></div>
<script>window.__hostConfig = ${json};</script>
<script>${script}</script>
</body></html>`;
}

// ---------------------------------------------------------------------------------------------
// One host: a server process, a relay, a page.

export class Host {
  /**
   * @param {object} o
   * @param {'legacy'|'modern'} [o.era] legacy: Claude Desktop's initialize; modern: 2026-07-28
   *   (server/discover, then _meta on every request)
   * @param {string[]} [o.flags] server flags after --root ROOT (default ['--approval', 'ask'])
   * @param {'light'|'dark'} [o.theme]
   * @param {object} [o.files] name -> string|Buffer, written into the root first
   * @param {string} [o.label]
   */
  static async start(o = {}) {
    const h = new Host(o);
    try {
      await h.startServer();
      await h.startRelay();
      await h.openPage();
    } catch (e) {
      await h.abort();
      throw e;
    }
    return h;
  }

  constructor({ era = 'legacy', flags = ['--approval', 'ask'], theme = 'light', files = {}, label, viewHtml } = {}) {
    this.era = era;
    this.viewHtml = viewHtml;
    this.flags = flags;
    this.theme = theme;
    this.label = label ?? `${era}`;
    this.root = makeTempDir();
    for (const [name, bytes] of Object.entries(files)) this.write(name, bytes);
    this.problems = [];
    this.ui = [];           // every message between a view and the host: {t, dir, view, msg}
    this.model = [];        // what the model is told by views: {t, method, view, params, text}
    this.records = [];      // everything the page reported, in order
    this.transcript = [];   // {dir: 'c2s'|'s2c', line}
    this.requests = [];     // every request the page made: {url, method, frame, isMain, resourceType}
    this.console = [];      // console messages and page errors
    this.validator = new UiChannelValidator(this.problems);
    this.waiters = new Set();
    this.secret = crypto.randomBytes(16).toString('hex');
  }

  path(name) { return path.join(this.root, name); }
  write(name, bytes) {
    const p = this.path(name);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, bytes);
    return p;
  }
  read(name) { return fs.readFileSync(this.path(name)); }

  // --- the server --------------------------------------------------------------------------

  async startServer() {
    assert.ok(fs.existsSync(BINARY), `mcp-edit binary not found at ${BINARY}: build it (scripts/build) or set MCP_EDIT_BINARY`);
    this.args = ['--root', this.root, '--no-fsync', ...this.flags];
    this.child = spawn(BINARY, this.args, { stdio: ['pipe', 'pipe', 'pipe'] });
    this.stderr = '';
    this.child.stderr.on('data', (c) => {
      this.stderr += c.toString();
      if (this.stderr.length > 1 << 20) this.stderr = this.stderr.slice(-(1 << 20));
    });
    this.child.stdin.on('error', () => {});
    this.downQueue = [];
    let pending = '';
    this.child.stdout.setEncoding('utf8');
    this.child.stdout.on('data', (chunk) => {
      pending += chunk;
      let nl;
      while ((nl = pending.indexOf('\n')) !== -1) {
        const line = pending.slice(0, nl);
        pending = pending.slice(nl + 1);
        this.transcript.push({ dir: 's2c', line });
        this.down(line);
      }
    });
    this.exited = new Promise((resolve) => {
      this.child.on('close', (code, signal) => {
        this.exit = { code, signal };
        if (pending) this.problems.push(`server stdout ended with an unterminated line: ${short(pending)}`);
        this.wake();
        resolve(this.exit);
      });
    });
    await new Promise((resolve, reject) => {
      this.child.once('spawn', resolve);
      this.child.once('error', reject);
    });
  }

  down(line) {
    if (this.sse) this.sse.write(`data: ${line}\n\n`);
    else this.downQueue.push(line);
  }

  // --- the relay ---------------------------------------------------------------------------

  async startRelay() {
    const base = `/${this.secret}`;
    this.http = http.createServer((req, res) => {
      const url = req.url ?? '';
      if (req.method === 'GET' && url === `${base}/host.html`) {
        res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
        res.end(this.pageHtml);
      } else if (req.method === 'GET' && url === `${base}/down`) {
        res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
        res.write(': relay\n\n');
        if (this.sse) this.problems.push('the host page opened a second event stream');
        this.sse = res;
        for (const line of this.downQueue.splice(0)) res.write(`data: ${line}\n\n`);
        req.on('close', () => { if (this.sse === res) this.sse = null; });
      } else if (req.method === 'POST' && url === `${base}/up`) {
        const chunks = [];
        req.on('data', (c) => chunks.push(c));
        req.on('end', () => {
          let items;
          try {
            items = JSON.parse(Buffer.concat(chunks).toString('utf8'));
          } catch (e) {
            this.problems.push(`relay: a batch from the page is not JSON: ${e.message}`);
            res.writeHead(400).end();
            return;
          }
          for (const item of items) {
            try {
              this.up(item);
            } catch (e) {
              this.problems.push(`harness: handling ${short(show(item), 300)} threw ${e.stack}`);
            }
          }
          res.writeHead(204).end();
        });
      } else {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      }
    });
    await new Promise((resolve) => this.http.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${this.http.address().port}`;
    this.relayBase = `${this.origin}${base}`;
  }

  up(item) {
    if (item.k === 'line') {
      this.transcript.push({ dir: 'c2s', line: item.line });
      if (!this.exit) this.child.stdin.write(item.line + '\n');
    } else if (item.k === 'rec') {
      this.onRecord(item.entry);
    }
  }

  onRecord(e) {
    this.records.push(e);
    if (e.kind === 'ui') {
      this.ui.push(e);
      this.validator.check(e);
    } else if (e.kind === 'model') {
      const text = (e.params?.content ?? []).filter((c) => c?.type === 'text').map((c) => c.text).join('\n');
      this.model.push({ ...e, text });
    } else if (e.kind === 'problem') {
      this.problems.push(`host page: ${e.text}`);
    } else if (e.kind === 'resource') {
      this.resource = e;
    }
    this.wake();
  }

  // --- the page ----------------------------------------------------------------------------

  async openPage() {
    const script = await bundleHostPage();
    const config = {
      relay: `${this.relayBase}`,
      era: this.era,
      theme: this.theme,
      capabilities: structuredClone(CLAUDE_DESKTOP_INITIALIZE.capabilities),
      clientInfo: structuredClone(CLAUDE_DESKTOP_INITIALIZE.clientInfo),
      hostInfo: { name: 'claude-ai', version: '0.1.0' },
      hostCapabilities: { serverTools: {}, message: { text: {} }, updateModelContext: { text: {} }, logging: {} },
    };
    if (this.viewHtml !== undefined) config.viewHtml = this.viewHtml;
    this.pageHtml = hostHtml(config, script);
    this.context = await (await browser()).newContext({ viewport: { width: 760, height: 900 }, colorScheme: this.theme });
    this.page = await this.context.newPage();
    this.page.on('request', (r) => {
      const frame = r.frame();
      this.requests.push({ url: r.url(), method: r.method(), resourceType: r.resourceType(), isMain: frame === this.page.mainFrame(), frameUrl: frame.url() });
    });
    this.page.on('console', (m) => {
      const entry = { type: m.type(), text: m.text(), where: m.location()?.url ?? '' };
      this.console.push(entry);
      if (m.type() === 'error' || /\[ext-apps\]|\[MCP Apps\]/.test(m.text())) {
        this.problems.push(`console ${m.type()} (${entry.where || 'page'}): ${short(m.text())}`);
      }
    });
    this.page.on('pageerror', (err) => {
      this.console.push({ type: 'pageerror', text: String(err) });
      this.problems.push(`uncaught exception in the page or a view: ${err.message}`);
    });
    await this.page.goto(`${this.relayBase}/host.html`);
    this.connected = await this.page.evaluate(() => window.host.connect());
    this.tools = this.connected.tools;
  }

  // --- what tests use ----------------------------------------------------------------------

  tool(name) { return this.tools.find((t) => t.name === name); }

  /**
   * The model calls a tool: tools/call from the host; for a tool with `_meta.ui.resourceUri` the
   * host renders its view (tool-input, then tool-result). Returns {result, error, response, view}
   * (view: {id, frame (FrameLocator), iframe (Locator)} or null).
   */
  async callTool(name, args, { render = true } = {}) {
    const { response, view } = await this.page.evaluate(([n, a, r]) => window.host.callTool(n, a, { render: r }), [name, args, render]);
    return { response, result: response.result, error: response.error, view: view ? this.view(view) : null };
  }

  /** A view by id (default: the last one). */
  view(id) {
    const n = id ?? this.ui.reduce((m, e) => Math.max(m, e.view ?? 0), 0);
    return { id: n, frame: this.page.frameLocator(`#view-${n}`), iframe: this.page.locator(`#view-${n}`) };
  }

  /** The ui/* (and tools/call) messages, optionally only one method and direction. */
  uiMessages({ method, dir, view } = {}) {
    return this.ui.filter((e) => (!method || e.msg.method === method) && (!dir || e.dir === dir) && (view === undefined || e.view === view));
  }

  /** The response to a recorded request (same view, other direction, same id). */
  responseTo(entry) {
    const other = entry.dir === 'view→host' ? 'host→view' : 'view→host';
    return this.ui.find((e) => e.view === entry.view && e.dir === other && !('method' in e.msg) && show(e.msg.id) === show(entry.msg.id));
  }

  wake() { for (const w of [...this.waiters]) w(); }

  /** Waits until fn() returns a truthy value (re-checked whenever something is recorded, and every 50 ms). */
  async waitFor(fn, what = 'a condition', timeout = 10000) {
    const deadline = Date.now() + timeout;
    for (;;) {
      const v = await fn();
      if (v) return v;
      if (Date.now() > deadline) {
        assert.fail(`timed out after ${timeout} ms waiting for ${what}\n${this.debugTail()}`);
      }
      await new Promise((resolve) => {
        const w = () => { this.waiters.delete(w); clearTimeout(timer); resolve(); };
        const timer = setTimeout(w, 50);
        this.waiters.add(w);
      });
    }
  }

  /** Waits for a model-facing message (ui/message or ui/update-model-context) matching pred. */
  waitForModel(pred, what = 'a message to the model', timeout) {
    return this.waitFor(() => this.model.find(pred), what, timeout);
  }

  /** Waits for a recorded ui/* message matching pred. */
  waitForUi(pred, what = 'a ui/* message', timeout) {
    return this.waitFor(() => this.ui.find(pred), what, timeout);
  }

  /** Waits until the view's text contains every one of `texts` (strings or regexps). */
  async waitForText(view, texts, { selector = 'body', timeout = 10000 } = {}) {
    const loc = view.frame.locator(selector).first();
    let last = '';
    return this.waitFor(async () => {
      last = await loc.innerText({ timeout: 1000 }).catch(() => '');
      return texts.every((t) => (typeof t === 'string' ? last.includes(t) : t.test(last))) ? last : null;
    }, `view ${view.id} to show ${texts.map(String).join(', ')} (it shows ${show(short(last, 800))})`, timeout);
  }

  /** Screenshot of a view's iframe (default the last), or of the whole page with {page: true}. */
  async screenshot(file, { view, page = false } = {}) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    if (page) return this.page.screenshot({ path: file, fullPage: true });
    return this.view(view).iframe.screenshot({ path: file });
  }

  /** Writes a screenshot into MCP_EDIT_SCREENSHOTS when it is set. */
  async shot(name, opts) {
    if (!SCREENSHOTS) return null;
    const file = path.join(SCREENSHOTS, `${name}.png`);
    await this.screenshot(file, opts);
    return file;
  }

  async setTheme(theme) {
    this.theme = theme;
    await this.page.evaluate((t) => window.host.setTheme(t), theme);
  }

  debugTail() {
    const ui = this.ui.slice(-8).map((e) => `  ${e.dir} v${e.view} ${short(show(e.msg), 300)}`).join('\n');
    const lines = this.transcript.slice(-6).map((e) => `  ${e.dir} ${short(e.line, 300)}`).join('\n');
    return `last ui messages:\n${ui || '  (none)'}\nlast server lines:\n${lines || '  (none)'}\nproblems: ${show(this.problems)}\nstderr tail:\n${this.stderr.slice(-1500)}`;
  }

  /** Log lines of level error or critical. */
  errorLines() {
    return this.stderr.split('\n').filter((l) => /^\S+\s+(error|critical)\b/i.test(l) || /^(error|critical)\b/i.test(l));
  }

  /** Closes the page, then the server's stdin; waits for its exit (SIGKILL after `timeout`). */
  async close(timeout = 5000) {
    if (this.closed) return this.exit;
    this.closed = true;
    try { await this.context?.close(); } catch { /* already gone */ }
    this.sse?.end();
    this.http?.closeAllConnections();
    await new Promise((resolve) => (this.http ? this.http.close(resolve) : resolve()));
    this.child?.stdin.end();
    const timer = setTimeout(() => this.child?.kill('SIGKILL'), timeout);
    const exit = this.child ? await this.exited : null;
    clearTimeout(timer);
    return exit;
  }

  async abort() {
    try { await this.close(1000); } catch { /* best effort */ }
  }

  /**
   * Requests the views made: anything but the host page's own (the page, the relay's two
   * endpoints) from its main frame. A view must load and fetch nothing.
   */
  foreignRequests() {
    const own = new Set([`${this.relayBase}/host.html`, `${this.relayBase}/up`, `${this.relayBase}/down`]);
    return this.requests.filter((r) => !r.isMain || !own.has(r.url));
  }

  /** Closes and asserts: exit 0, no error lines on stderr, no problem with any view message. */
  async finish() {
    // Answers recorded just before the end may still be on their way up from the page.
    if (!this.closed) await this.waitFor(() => this.validator.unanswered().length === 0, 'every request answered', 2000).catch(() => {});
    const exit = await this.close();
    for (const u of this.validator.unanswered()) this.problems.push(`request never answered: ${u}`);
    for (const r of this.foreignRequests()) this.problems.push(`request not made by the host page itself: ${r.method} ${r.url} (${r.resourceType}, from ${r.isMain ? 'the host page' : `frame ${r.frameUrl}`})`);
    assert.deepEqual(exit, { code: 0, signal: null }, `${this.label}: the server must exit 0 on EOF; stderr tail:\n${this.stderr.slice(-2000)}`);
    assert.deepEqual(this.errorLines(), [], `${this.label}: the server logged errors`);
    assert.equal(this.problems.length, 0, `${this.label}: ${this.problems.length} problem(s):\n  - ${this.problems.join('\n  - ')}`);
  }
}

/** Runs body(host) on a fresh Host, always closes it, then asserts it finished cleanly. */
export async function withHost(opts, body) {
  const h = await Host.start(opts);
  let failed = false;
  try {
    await body(h);
  } catch (e) {
    failed = true;
    await h.abort();
    if (h.problems.length) e.message += `\nview-channel problems:\n  - ${h.problems.join('\n  - ')}`;
    e.message += `\n${h.debugTail()}`;
    throw e;
  } finally {
    if (!failed) await h.finish();
  }
}

/** The text blocks of a CallToolResult, joined with newlines (what the model reads). */
export const textOf = (r) => (r?.content ?? []).filter((c) => c?.type === 'text').map((c) => c.text).join('\n');

/** The view payload of a result (hosts do not give `_meta` to the model). */
export const payloadOf = (r) => r?._meta?.['mcp-edit/review'];

/** The file must hold exactly these bytes. */
export function assertBytes(file, expected, what) {
  const got = fs.readFileSync(file);
  const exp = Buffer.isBuffer(expected) ? expected : Buffer.from(expected);
  if (!got.equals(exp)) {
    assert.fail(`${what}: ${path.basename(file)} differs byte for byte\n  expected ${show(exp.toString('latin1'))}\n  got      ${show(got.toString('latin1'))}`);
  }
}
