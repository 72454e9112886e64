// The npm packages as users meet them: published into a local registry (verdaccio on a loopback
// port, its own storage, no uplink), then, in a clean HOME, `npx -y mcp-edit --version`, and
// Claude Code's `claude mcp add edit -- npx -y mcp-edit --root DIR` followed by `claude mcp list`,
// which starts the server through npx and reports it Connected. Prints the measured start times.
import assert from 'node:assert/strict';
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { after, before, test } from 'node:test';

import { DIST, ROOT, VERSION, scratchDir, serve, tools } from './helpers.mjs';

let registry;
let verdaccio;
let verdaccioLog = '';

const freePort = () => new Promise((resolve, reject) => {
  const server = net.createServer();
  server.on('error', reject);
  server.listen(0, '127.0.0.1', () => {
    const { port } = server.address();
    server.close(() => resolve(port));
  });
});

/** A clean user's environment: a new HOME (npm's cache and config in it), the local registry. */
function cleanEnv(home) {
  const env = { PATH: process.env.PATH, HOME: home, USERPROFILE: home, LANG: process.env.LANG ?? 'C.UTF-8' };
  return Object.assign(env, {
    npm_config_registry: registry,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    CI: '1',
    NO_COLOR: '1',
    DISABLE_AUTOUPDATER: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
    NO_PROXY: '*',
  });
}

/** Runs `command args` to its end; its output, status and wall time in milliseconds. */
function timed(command, args, options) {
  const start = process.hrtime.bigint();
  const r = spawnSync(command, args, { encoding: 'utf8', timeout: 180000, ...options });
  return { ...r, ms: Number(process.hrtime.bigint() - start) / 1e6 };
}

before(async () => {
  const dir = scratchDir('verdaccio-');
  const port = await freePort();
  registry = `http://127.0.0.1:${port}/`;
  fs.writeFileSync(path.join(dir, 'config.yaml'), [
    `storage: ${path.join(dir, 'storage')}`,
    'auth:',
    '  htpasswd:',
    `    file: ${path.join(dir, 'htpasswd')}`,
    'uplinks: {}',
    'packages:',
    "  '**':",
    '    access: $all',
    '    publish: $authenticated',
    'web:',
    '  enable: false',
    'log: { type: stdout, format: pretty, level: warn }',
    '',
  ].join('\n'));
  verdaccio = spawn(tools.verdaccio, ['--config', path.join(dir, 'config.yaml'), '--listen', `127.0.0.1:${port}`], {
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  verdaccio.stdout.on('data', (d) => { verdaccioLog = (verdaccioLog + d).slice(-4000); });
  verdaccio.stderr.on('data', (d) => { verdaccioLog = (verdaccioLog + d).slice(-4000); });
  let token;
  for (let attempt = 0; attempt < 300 && !token; ++attempt) {
    await new Promise((r) => setTimeout(r, 100));
    try {
      const response = await fetch(`${registry}-/user/org.couchdb.user:tester`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'tester', password: 'tester-password' }),
      });
      if (response.ok) token = (await response.json()).token;
    } catch {
      // not listening yet
    }
  }
  assert.ok(token, `verdaccio did not start on ${registry}:\n${verdaccioLog}`);
  const npmrc = path.join(dir, 'npmrc');
  fs.writeFileSync(npmrc, `registry=${registry}\n//127.0.0.1:${port}/:_authToken=${token}\n`);
  for (const tarball of fs.readdirSync(path.join(DIST, 'npm')).filter((f) => f.endsWith('.tgz'))) {
    const r = spawnSync('npm', ['publish', path.join(DIST, 'npm', tarball), '--userconfig', npmrc, '--registry', registry],
      { encoding: 'utf8', env: { ...process.env, HOME: dir } });
    assert.equal(r.status, 0, `npm publish ${tarball} failed:\n${r.stdout}\n${r.stderr}\n${verdaccioLog}`);
  }
});

after(() => verdaccio?.kill());

test('npx -y mcp-edit --version in a clean HOME runs the linux-x64 executable; the cold start is measured', () => {
  const home = scratchDir('npx-home-');
  const direct = timed(path.join(ROOT, 'build/mcp-edit'), ['--version']);
  const cold = timed('npx', ['-y', 'mcp-edit', '--version'], { env: cleanEnv(home), cwd: home });
  assert.equal(cold.status, 0, `npx -y mcp-edit --version failed:\n${cold.stdout}\n${cold.stderr}\n${verdaccioLog}`);
  assert.equal(cold.stdout.trim(), `mcp-edit ${VERSION}`);
  const warm = timed('npx', ['-y', 'mcp-edit', '--version'], { env: cleanEnv(home), cwd: home });
  assert.equal(warm.stdout.trim(), `mcp-edit ${VERSION}`, warm.stderr);
  // Only this platform's package was installed, beside the launcher.
  const npx = path.join(home, '.npm/_npx');
  const installed = fs.readdirSync(npx).flatMap((d) => fs.readdirSync(path.join(npx, d, 'node_modules')));
  assert.ok(installed.includes('mcp-edit-linux-x64'), installed.join(' '));
  assert.ok(!installed.includes('mcp-edit-win32-x64') && !installed.includes('mcp-edit-darwin-arm64'), installed.join(' '));
  console.log(`start to --version: direct ${direct.ms.toFixed(0)} ms; npx -y cold (empty cache, local registry) ` +
    `${cold.ms.toFixed(0)} ms; npx -y warm ${warm.ms.toFixed(0)} ms`);
});

test('through npx (warm cache) the server answers initialize like the direct binary', async () => {
  const home = scratchDir('npx-init-home-');
  const first = timed('npx', ['-y', 'mcp-edit', '--version'], { env: cleanEnv(home), cwd: home });
  assert.equal(first.status, 0, first.stderr);
  const timeToInitialize = async (command, args) => {
    const start = process.hrtime.bigint();
    const server = serve(command, args, { env: cleanEnv(home) });
    const result = await server.ready;
    const ms = Number(process.hrtime.bigint() - start) / 1e6;
    assert.equal(await server.close(), 0, server.stderr());
    return { ms, result };
  };
  const direct = await timeToInitialize(path.join(ROOT, 'build/mcp-edit'), ['--root', home, '--log-level', 'off']);
  const viaNpx = await timeToInitialize('npx', ['-y', 'mcp-edit', '--root', home, '--log-level', 'off']);
  assert.deepEqual(viaNpx.result.serverInfo, direct.result.serverInfo);
  console.log(`start to the initialize reply: direct ${direct.ms.toFixed(0)} ms; npx -y warm ${viaNpx.ms.toFixed(0)} ms`);
});

/** Every descendant pid of `pid` (Linux /proc), children first. */
function descendants(pid) {
  const out = [];
  for (const task of fs.readdirSync(`/proc/${pid}/task`)) {
    let kids = '';
    try { kids = fs.readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim(); } catch { continue; }
    for (const kid of kids ? kids.split(/\s+/).map(Number) : []) out.push(kid, ...descendants(kid));
  }
  return out;
}
const alive = (pid) => {
  try { return !/^\d+ \(.*\) Z/.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8')); } catch { return false; }
};
const exeOf = (pid) => { try { return fs.readlinkSync(`/proc/${pid}/exe`); } catch { return ''; } };

// A host stops a server with SIGTERM to the process it started (npx); Ctrl+C in a terminal sends
// SIGINT to the whole foreground process group (npm itself leaves SIGINT to the group).
for (const [signal, to] of [['SIGTERM', 'npx'], ['SIGINT', 'the process group, as Ctrl+C']]) {
  test(`${signal} to ${to} ends the server npx started within a second`, async () => {
    const home = scratchDir('npx-kill-home-');
    const server = serve('npx', ['-y', 'mcp-edit', '--root', home, '--log-level', 'off'], { env: cleanEnv(home), detached: true });
    await server.ready;
    const npx = server.child.pid;
    const native = descendants(npx).filter((pid) => exeOf(pid).endsWith('/bin/mcp-edit'));
    assert.equal(native.length, 1, `one native server under npx: ${descendants(npx).map((p) => `${p}:${exeOf(p)}`).join(' ')}`);
    const sent = Date.now();
    process.kill(signal === 'SIGINT' ? -npx : npx, signal);
    while (alive(native[0]) && Date.now() - sent < 1000) await new Promise((r) => setTimeout(r, 10));
    const left = alive(native[0]);
    if (left) process.kill(native[0], 'SIGKILL');
    assert.ok(!left, `the server (pid ${native[0]}) still ran 1 s after ${signal} to npx`);
    await server.close();
  });
}

test('npx -y mcp-edit config claude-desktop prints the npx form, not the path in npx\'s cache, and says why', () => {
  const home = scratchDir('npx-config-home-');
  const r = timed('npx', ['-y', 'mcp-edit', 'config', 'claude-desktop', '--root', home], { env: cleanEnv(home), cwd: home });
  assert.equal(r.status, 0, r.stderr);
  const entry = JSON.parse(r.stdout).mcpServers.edit;
  assert.equal(entry.command, 'npx', r.stdout);
  assert.deepEqual(entry.args, ['-y', 'mcp-edit', '--root', home]);
  assert.ok(!r.stdout.includes('_npx'), r.stdout);
  assert.match(r.stderr, /runs from npx's cache/);
});

test('the npm packages are MIT-licensed and ship LICENSE; the Linux one is for glibc only', () => {
  for (const tarball of fs.readdirSync(path.join(DIST, 'npm')).filter((f) => f.endsWith('.tgz'))) {
    const list = spawnSync('tar', ['-tzf', path.join(DIST, 'npm', tarball)], { encoding: 'utf8' }).stdout.split('\n');
    assert.ok(list.includes('package/LICENSE'), `${tarball} lacks LICENSE: ${list.join(' ')}`);
    const manifest = JSON.parse(spawnSync('tar', ['-xzOf', path.join(DIST, 'npm', tarball), 'package/package.json'],
      { encoding: 'utf8' }).stdout);
    assert.equal(manifest.license, 'MIT', tarball);
    if (manifest.name === 'mcp-edit-linux-x64') assert.deepEqual(manifest.libc, ['glibc']);
    if (manifest.name === 'mcp-edit') assert.ok(list.includes('package/bin/run-native.js'), list.join(' '));
  }
});

test('claude mcp add edit -- npx -y mcp-edit --root DIR: claude mcp list shows it Connected', () => {
  const home = scratchDir('npx-claude-home-');
  const project = scratchDir('npx-claude-project-');
  const env = cleanEnv(home);
  const add = timed(tools.claude, ['mcp', 'add', 'edit', '--', 'npx', '-y', 'mcp-edit', '--root', project], { env, cwd: project });
  assert.equal(add.status, 0, `claude mcp add failed:\n${add.stdout}\n${add.stderr}`);
  const list = timed(tools.claude, ['mcp', 'list'], { env, cwd: project });
  assert.match(list.stdout, new RegExp(`edit: npx -y mcp-edit --root ${project}.*Connected`),
    `claude mcp list:\n${list.stdout}\n${list.stderr}\n${verdaccioLog}`);
  console.log(`claude mcp list (starts the server through npx, cold cache): ${list.ms.toFixed(0)} ms`);
});
