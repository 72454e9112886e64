// The host page's script (runs in Chromium; harness.mjs bundles it with esbuild at test time into
// a temporary directory). It plays Claude Desktop:
// - an MCP client speaking newline JSON-RPC to mcp-edit through the harness's relay on 127.0.0.1
//   (lines go up in ordered POST batches, come down as Server-Sent Events, one line per event);
// - a host of MCP Apps views: each call of a tool whose definition names `_meta.ui.resourceUri`
//   gets its own iframe (sandbox="allow-scripts", srcdoc = the resource's HTML), connected with the
//   official AppBridge + PostMessageTransport of @modelcontextprotocol/ext-apps/app-bridge;
// - every message between a view and the host is reported to the harness (which validates it
//   against ext-apps' schema.json), and so are ui/message and ui/update-model-context (what the
//   model would be told).
// The harness drives it through window.host (page.evaluate).
import { AppBridge, PostMessageTransport, getToolUiResourceUri } from '@modelcontextprotocol/ext-apps/app-bridge';

const config = window.__hostConfig; // {relay, era, theme, hostContext, clientInfo, capabilities, ...}
const PV_KEY = 'io.modelcontextprotocol/protocolVersion';
const CAPS_KEY = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';
const MODERN = '2026-07-28';

// ---------------------------------------------------------------------------------------------
// The relay: ordered batches up, one SSE event per server line down.

let outbox = [];
let flushing = false;
const t0 = performance.now();
const now = () => Math.round(performance.now() - t0);

function post(item) {
  outbox.push(item);
  if (!flushing) flush();
}

let drainWaiters = [];

async function flush() {
  flushing = true;
  try {
    while (outbox.length) {
      const batch = outbox;
      outbox = [];
      const r = await fetch(config.relay + '/up', { method: 'POST', body: JSON.stringify(batch),
        headers: { 'content-type': 'application/json' } });
      if (!r.ok) throw new Error(`relay answered ${r.status}`);
    }
  } catch (e) {
    console.error('[host] relay failed: ' + e.message);
  } finally {
    flushing = false;
    for (const w of drainWaiters.splice(0)) w();
  }
}

/** Resolves once everything posted so far has reached the harness (it answers a batch after handling it). */
function drained() {
  if (!flushing && !outbox.length) return Promise.resolve();
  return new Promise((resolve) => drainWaiters.push(resolve));
}

/** Reports something to the harness (recorded there, in order with the lines). */
const record = (entry) => post({ k: 'rec', entry: { t: now(), ...entry } });
const problem = (text) => record({ kind: 'problem', text });

// ---------------------------------------------------------------------------------------------
// The MCP client (the host's connection to mcp-edit)

let nextId = 0;
const waiting = new Map(); // id -> {resolve, method}
let serverInfo;
let tools = [];

function sendLine(msg) { post({ k: 'line', line: JSON.stringify(msg) }); }

function meta() {
  return {
    [PV_KEY]: MODERN,
    [CAPS_KEY]: config.capabilities,
    [CLIENT_INFO_KEY]: config.clientInfo,
  };
}

/** Sends a request and resolves with the whole JSON-RPC response ({result} or {error}). */
function rpc(method, params) {
  const id = nextId++;
  const msg = { jsonrpc: '2.0', id, method };
  if (config.era === 'modern') msg.params = { ...(params ?? {}), _meta: { ...(params?._meta ?? {}), ...meta() } };
  else if (params !== undefined) msg.params = params;
  return new Promise((resolve) => {
    waiting.set(id, { resolve, method });
    sendLine(msg);
  });
}

/** rpc, but resolves with the result and throws on a JSON-RPC error. */
async function call(method, params) {
  const r = await rpc(method, params);
  if (r.error) {
    const e = new Error(`${method}: JSON-RPC error ${r.error.code} ${r.error.message}`);
    e.code = r.error.code;
    e.data = r.error.data;
    throw e;
  }
  return r.result;
}

function onServerLine(line) {
  let m;
  try { m = JSON.parse(line); } catch { problem(`server line is not JSON: ${line.slice(0, 200)}`); return; }
  if (m && typeof m.method === 'string') {
    if ('id' in m) {
      // Claude Desktop declares neither roots, sampling nor elicitation: answer ping only.
      if (m.method === 'ping') sendLine({ jsonrpc: '2.0', id: m.id, result: {} });
      else sendLine({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: `Method not found: ${m.method}` } });
      record({ kind: 'server-request', msg: m });
    } else {
      record({ kind: 'server-notification', msg: m });
    }
    return;
  }
  const w = waiting.get(m?.id);
  if (!w) { problem(`response to an unknown id: ${line.slice(0, 200)}`); return; }
  waiting.delete(m.id);
  w.resolve(m);
}

async function connect() {
  const events = new EventSource(config.relay + '/down');
  events.onmessage = (ev) => onServerLine(ev.data);
  await new Promise((resolve, reject) => {
    events.onopen = resolve;
    events.onerror = () => reject(new Error('the relay event stream failed'));
  });
  events.onerror = () => console.error('[host] relay event stream error');
  if (config.era === 'modern') {
    const d = await call('server/discover', {});
    serverInfo = d.serverInfo ?? d._meta?.['io.modelcontextprotocol/serverInfo'];
    record({ kind: 'mcp', method: 'server/discover', result: d });
  } else {
    const init = await call('initialize', {
      protocolVersion: '2025-11-25',
      capabilities: config.capabilities,
      clientInfo: config.clientInfo,
    });
    serverInfo = init.serverInfo;
    sendLine({ jsonrpc: '2.0', method: 'notifications/initialized' });
    record({ kind: 'mcp', method: 'initialize', result: init });
  }
  const list = await call('tools/list', {});
  tools = list.tools;
  await drained();
  return { serverInfo, tools };
}

// ---------------------------------------------------------------------------------------------
// Views

const views = [];
const resourceCache = new Map();

async function readResource(uri) {
  if (!resourceCache.has(uri)) {
    const r = await call('resources/read', { uri });
    const c = r.contents?.find((x) => x.uri === uri) ?? r.contents?.[0];
    if (!c || typeof c.text !== 'string') throw new Error(`resources/read ${uri}: no text content`);
    resourceCache.set(uri, { content: c, result: r });
    record({ kind: 'resource', uri, mimeType: c.mimeType, size: new TextEncoder().encode(c.text).length, meta: c._meta ?? null });
  }
  return resourceCache.get(uri).content;
}

/** A Transport that reports every message both ways, around the official PostMessageTransport. */
class RecordingTransport {
  constructor(inner, viewId) {
    this.inner = inner;
    this.viewId = viewId;
    inner.onmessage = (msg, extra) => {
      record({ kind: 'ui', dir: 'view→host', view: viewId, msg });
      this.onmessage?.(msg, extra);
    };
    inner.onerror = (e) => {
      problem(`view ${viewId}: PostMessageTransport error: ${e?.message ?? e}`);
      this.onerror?.(e);
    };
    inner.onclose = () => this.onclose?.();
  }
  start() { return this.inner.start(); }
  async send(msg, options) {
    record({ kind: 'ui', dir: 'host→view', view: this.viewId, msg });
    return this.inner.send(msg, options);
  }
  close() { return this.inner.close(); }
}

// postMessages from a view that the transport ignores silently (not JSON-RPC at all).
window.addEventListener('message', (ev) => {
  const v = views.find((x) => x.iframe.contentWindow === ev.source);
  if (!v) return;
  const d = ev.data;
  if (!d || typeof d !== 'object' || d.jsonrpc !== '2.0') {
    problem(`view ${v.id} posted a message that is not JSON-RPC 2.0: ${JSON.stringify(d)?.slice(0, 300)}`);
  }
});

function hostContext(v) {
  return {
    theme: config.theme,
    displayMode: 'inline',
    availableDisplayModes: ['inline'],
    platform: 'desktop',
    locale: 'en-US',
    timeZone: 'UTC',
    userAgent: 'claude-ai/0.1.0 (mcp-edit view tests)',
    // No containerDimensions: ext-apps 2.0.4's schema.json makes it an allOf of two anyOfs whose
    // branches each forbid additional properties, so any object naming both a height and a width
    // ({maxHeight, width} as Claude sends) fails McpUiHostContext; only {} or one key passes.
    toolInfo: v.tool ? { id: v.callId, tool: v.tool } : undefined,
    ...(config.hostContext ?? {}),
  };
}

async function openView(uri, tool, callId) {
  const id = views.length + 1;
  const content = await readResource(uri);
  const box = document.createElement('div');
  box.className = 'turn';
  const label = document.createElement('div');
  label.className = 'label';
  label.textContent = `${tool?.name ?? '?'} — view ${id}`;
  const iframe = document.createElement('iframe');
  iframe.id = `view-${id}`;
  iframe.setAttribute('sandbox', 'allow-scripts');
  iframe.setAttribute('title', `${tool?.name ?? 'tool'} view`);
  box.append(label, iframe);
  document.getElementById('chat').append(box);

  const v = { id, iframe, tool, callId, initialized: false };
  views.push(v);
  const ctx = hostContext(v);
  if (!ctx.toolInfo) delete ctx.toolInfo;
  const bridge = new AppBridge(null, config.hostInfo, config.hostCapabilities, { hostContext: ctx });
  v.bridge = bridge;
  bridge.oncalltool = async (params) => {
    record({ kind: 'view-call', view: id, params });
    const r = await rpc('tools/call', params);
    if (r.error) {
      const e = new Error(r.error.message);
      e.code = r.error.code;
      e.data = r.error.data;
      throw e;
    }
    return r.result;
  };
  bridge.onmessage = async (params) => {
    record({ kind: 'model', method: 'ui/message', view: id, params });
    return {};
  };
  bridge.onupdatemodelcontext = async (params) => {
    record({ kind: 'model', method: 'ui/update-model-context', view: id, params });
    return {};
  };
  bridge.onsizechange = ({ height }) => {
    if (typeof height === 'number') iframe.style.height = `${Math.min(Math.max(height, 40), 6000)}px`;
  };
  bridge.onrequestteardown = () => record({ kind: 'note', text: `view ${id} asked for teardown` });
  bridge.onloggingmessage = (params) => record({ kind: 'view-log', view: id, params });
  v.ready = new Promise((resolve) => bridge.addEventListener('initialized', () => { v.initialized = true; resolve(); }));
  await bridge.connect(new RecordingTransport(new PostMessageTransport(iframe.contentWindow, iframe.contentWindow), id));
  // config.viewHtml: the harness's own test views (harness.test.mjs) in place of the server's.
  iframe.srcdoc = typeof config.viewHtml === 'string' ? config.viewHtml : content.text;
  return v;
}

/**
 * The model calls a tool: tools/call to the server; for a tool with a UI resource, a view is
 * rendered as the call starts, given the arguments once it is initialized, then the result.
 */
async function callTool(name, args, { render = true, initTimeoutMs = 10000 } = {}) {
  const tool = tools.find((t) => t.name === name);
  const uri = tool && render ? getToolUiResourceUri(tool) : undefined;
  const callId = nextId;
  const pending = rpc('tools/call', { name, arguments: args });
  let v;
  if (uri) {
    v = await openView(uri, tool, callId);
    const timer = new Promise((_, reject) => setTimeout(() => reject(new Error(
      `view ${v.id} did not send ui/notifications/initialized within ${initTimeoutMs} ms`)), initTimeoutMs));
    await Promise.race([v.ready, timer]);
    await v.bridge.sendToolInput({ arguments: args });
  }
  const response = await pending;
  if (v) {
    if (response.error) await v.bridge.sendToolCancelled({ reason: response.error.message });
    else await v.bridge.sendToolResult(response.result);
  }
  await drained();
  return { response, view: v ? v.id : null };
}

async function setTheme(theme) {
  config.theme = theme;
  document.documentElement.dataset.theme = theme;
  for (const v of views) {
    const ctx = hostContext(v);
    if (!ctx.toolInfo) delete ctx.toolInfo;
    v.bridge.setHostContext(ctx);
  }
  await drained();
}

async function teardown(id) {
  const v = views.find((x) => x.id === id);
  if (!v) throw new Error(`no view ${id}`);
  return v.bridge.teardownResource({});
}

/** The model calls a tool without any view (a plain request; what the model sees is the result). */
const rawCall = (name, args) => rpc('tools/call', { name, arguments: args });

window.host = { connect, callTool, rawCall, setTheme, teardown, drained, rpc: (m, p) => rpc(m, p), views: () => views.map((v) => ({ id: v.id, initialized: v.initialized })) };
document.documentElement.dataset.theme = config.theme;
record({ kind: 'note', text: 'host page loaded' });
