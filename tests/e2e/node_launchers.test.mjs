// The two Node entries that start the native executable, laid out as users get them: the npm
// package's launcher (packaging/npm/mcp-edit/bin/mcp-edit.js) as npm installs it (node_modules/
// mcp-edit and node_modules/mcp-edit-linux-x64 holding this build's executable), and the Claude
// Desktop bundle's node entry (packaging/mcpb/index.js) in a bundle extracted with every file at
// 0600, as Claude Desktop on macOS extracts it. A SIGTERM, SIGINT or SIGHUP to the launcher ends
// the server within a second (the npm launcher used to leave it running until its stdin closed),
// the launcher exits as the server did, and MCP goes straight through it.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { BINARY, makeTempDir, requireBinary, serverOf, watchServer } from './helpers.mjs';

requireBinary();
const here = path.dirname(fileURLToPath(import.meta.url));
const LAUNCHER = path.join(here, '../../packaging/npm/mcp-edit/bin/mcp-edit.js');
const RUN_NATIVE = path.join(here, '../../packaging/launcher/run-native.js');
const MCPB_ENTRY = path.join(here, '../../packaging/mcpb/index.js');

/** node_modules as npm lays it out for linux-x64, with this build's executable. */
function installed() {
  const top = makeTempDir('npm-launcher');
  const launcher = path.join(top, 'node_modules/mcp-edit/bin/mcp-edit.js');
  fs.mkdirSync(path.dirname(launcher), { recursive: true });
  fs.copyFileSync(LAUNCHER, launcher);
  fs.copyFileSync(RUN_NATIVE, path.join(path.dirname(launcher), 'run-native.js'));
  const platform = path.join(top, 'node_modules/mcp-edit-linux-x64');
  fs.mkdirSync(path.join(platform, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(platform, 'package.json'), JSON.stringify({ name: 'mcp-edit-linux-x64', version: '0.0.0' }));
  fs.copyFileSync(BINARY, path.join(platform, 'bin/mcp-edit'));
  fs.chmodSync(path.join(platform, 'bin/mcp-edit'), 0o755);
  return { top, launcher };
}

/** The bundle's server/ folder as scripts/package lays it out, every file at 0600. */
function bundled() {
  const top = makeTempDir('mcpb-entry');
  const server = path.join(top, 'server');
  fs.mkdirSync(path.join(server, 'linux-x64'), { recursive: true });
  fs.copyFileSync(MCPB_ENTRY, path.join(server, 'index.js'));
  fs.copyFileSync(RUN_NATIVE, path.join(server, 'run-native.js'));
  fs.copyFileSync(BINARY, path.join(server, 'linux-x64/mcp-edit'));
  for (const file of ['index.js', 'run-native.js', 'linux-x64/mcp-edit']) fs.chmodSync(path.join(server, file), 0o600);
  return { top, launcher: path.join(server, 'index.js') };
}

/** The pids of `pid`'s children (Linux /proc). */
function childrenOf(pid) {
  const out = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    const text = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
    if (text) out.push(...text.split(/\s+/).map(Number));
  }
  return out;
}
const running = (pid) => {
  try {
    return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return false;
  }
};

async function startLauncher(layout = installed) {
  const { top, launcher } = layout();
  const child = spawn(process.execPath, [launcher, '--root', top], { stdio: ['pipe', 'pipe', 'pipe'] });
  // The launcher exits as its server did and passes its stderr on: checked when the file ends.
  watchServer(child, { label: `${path.relative(top, launcher)} --root ${top}` });
  let out = '';
  child.stdout.on('data', (d) => { out += d; });
  child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '1' } } }) + '\n');
  const deadline = Date.now() + 10000;
  while (!out.includes('"id":0') && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  assert.match(out, /"serverInfo":\{"name":"mcp-edit"/, 'the server answered initialize through the launcher');
  const servers = childrenOf(child.pid);
  assert.equal(servers.length, 1, `the launcher runs one server: ${servers}`);
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  return { child, server: servers[0], exited };
}

for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP']) {
  test(`${signal} to the launcher ends the server within a second`, async () => {
    const { child, server, exited } = await startLauncher();
    if (signal === 'SIGHUP') serverOf(child).expectExit({ code: null, signal: 'SIGHUP' }, 'the server does not catch SIGHUP; the launcher dies of it too');
    const sent = Date.now();
    child.kill(signal);
    while (running(server) && Date.now() - sent < 1000) await new Promise((r) => setTimeout(r, 10));
    const alive = running(server);
    if (alive) process.kill(server, 'SIGKILL');
    assert.ok(!alive, `the server (pid ${server}) still ran 1 s after ${signal} to the launcher`);
    const exit = await exited;
    // The server exits 0 on SIGTERM and SIGINT (in-flight work finished); SIGHUP, which it does not
    // catch, ends it by the signal, and the launcher dies of the same one.
    if (signal === 'SIGHUP') assert.deepEqual(exit, { code: null, signal: 'SIGHUP' });
    else assert.deepEqual(exit, { code: 0, signal: null }, `the launcher exits as the server did after ${signal}`);
  });
}

test('end of input: the server exits 0 and so does the launcher', async () => {
  const { child, server, exited } = await startLauncher();
  child.stdin.end();
  assert.deepEqual(await exited, { code: 0, signal: null });
  assert.ok(!running(server));
});

test('the .mcpb node entry, every file at 0600: the executable is made runnable, serves, and stops with SIGTERM', async () => {
  const { child, server, exited } = await startLauncher(bundled);
  const sent = Date.now();
  child.kill('SIGTERM');
  while (running(server) && Date.now() - sent < 1000) await new Promise((r) => setTimeout(r, 10));
  assert.ok(!running(server), 'the server still ran 1 s after SIGTERM to the entry');
  assert.deepEqual(await exited, { code: 0, signal: null });
});
