// What the packaging tests share: where the staged artifacts (scripts/package) and the tools are,
// scratch folders removed at exit, and a minimal MCP client over a child's stdio.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const DIST = process.env.MCP_EDIT_DIST ?? assert.fail('MCP_EDIT_DIST is not set (scripts/test-packages sets it)');
export const VERSION = JSON.parse(fs.readFileSync(path.join(DIST, 'server.json'), 'utf8')).version;
export const MCPB = path.join(DIST, `mcp-edit-${VERSION}.mcpb`);
const toolchain = path.join(ROOT, 'packaging/toolchain/node_modules');
export const tools = {
  mcpb: path.join(toolchain, '.bin/mcpb'),
  verdaccio: path.join(toolchain, '.bin/verdaccio'),
  claude: path.join(ROOT, 'tests/hosts/node_modules/.bin/claude'),
  lipo: ['/usr/bin/llvm-lipo', '/usr/bin/llvm-lipo-14'].find((p) => fs.existsSync(p)),
};
export const { getMcpConfigForManifest } = await import(path.join(toolchain, '@anthropic-ai/mcpb/dist/index.js'));

const scratch = [];
process.on('exit', () => {
  for (const dir of scratch) fs.rmSync(dir, { recursive: true, force: true });
});
/** A new empty folder (realpath'ed), removed when the test process exits. */
export function scratchDir(prefix) {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  scratch.push(dir);
  return dir;
}

/** Wine as scripts/test-windows runs it: build-win's prefix, quiet, no display. */
export function wineEnv(env = process.env) {
  const out = { ...env, WINEPREFIX: path.join(ROOT, 'build-win/wineprefix'), WINEDEBUG: '-all', WINEDLLOVERRIDES: 'mscoree,mshtml=' };
  delete out.DISPLAY;
  return out;
}

/**
 * Starts `command args` as an MCP server over stdio and initializes it (2025-11-25, no client
 * capabilities). request(method, params) resolves with the reply; close() ends stdin and waits.
 */
export function serve(command, args, { wine = false, env = process.env, timeoutMs = 60000, detached = false } = {}) {
  const child = spawn(command, args, { stdio: ['pipe', 'pipe', 'pipe'], env: wine ? wineEnv(env) : env, detached });
  const pending = new Map();
  let nextId = 1;
  let stderr = '';
  let buffer = '';
  child.stderr.on('data', (d) => { stderr = (stderr + d).slice(-4000); });
  child.stdout.on('data', (d) => {
    buffer += d;
    for (let nl; (nl = buffer.indexOf('\n')) >= 0;) {
      const line = buffer.slice(0, nl).trim();
      buffer = buffer.slice(nl + 1);
      if (!line) continue;
      const message = JSON.parse(line);
      pending.get(message.id)?.(message);
      pending.delete(message.id);
    }
  });
  const exited = new Promise((resolve) => child.on('exit', (code, signal) => resolve({ code, signal })));
  const request = (method, params) => {
    const id = nextId++;
    const reply = new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no reply to ${method} in ${timeoutMs} ms from ${command}; stderr:\n${stderr}`)), timeoutMs);
      pending.set(id, (m) => { clearTimeout(timer); resolve(m); });
      exited.then(({ code }) => reject(new Error(`${command} exited (${code}) before replying to ${method}; stderr:\n${stderr}`)));
    });
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, params }) + '\n');
    return reply;
  };
  const ready = request('initialize', {
    protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'packaging-test', version: '1' },
  }).then((reply) => {
    assert.ok(reply.result?.serverInfo, `initialize failed: ${JSON.stringify(reply)}`);
    child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
    return reply.result;
  });
  const close = async () => {
    child.stdin.end();
    const timer = setTimeout(() => child.kill('SIGKILL'), 20000);
    const { code } = await exited;
    clearTimeout(timer);
    return code;
  };
  return { child, request, ready, close, stderr: () => stderr };
}

/** tools/call `name` with `args` on a served child; the call's result. */
export async function callTool(server, name, args) {
  await server.ready;
  const reply = await server.request('tools/call', { name, arguments: args });
  assert.ok(reply.result, `tools/call ${name} failed: ${JSON.stringify(reply)}\nstderr:\n${server.stderr()}`);
  return reply.result;
}
