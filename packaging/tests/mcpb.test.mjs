// The .mcpb bundle as Claude Desktop meets it: `mcpb info` reads it, `mcpb unpack` unpacks it, the
// manifest's mcp_config gets ${__dirname} and the user_config values substituted by the same code
// (@anthropic-ai/mcpb's getMcpConfigForManifest), and the Linux and Windows (Wine) entries then edit a file.
// The entry is a node one (server/index.js) that makes the executable runnable first: Claude
// Desktop on macOS extracts every file at 0600 (modelcontextprotocol/mcpb#294), which a binary
// entry does not survive; the Linux test unpacks so.
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { DIST, MCPB, VERSION, callTool, getMcpConfigForManifest, scratchDir, serve, tools } from './helpers.mjs';

const unpacked = () => {
  const dir = scratchDir('mcpb-unpacked-');
  const r = spawnSync(tools.mcpb, ['unpack', MCPB, dir], { encoding: 'utf8' });
  assert.equal(r.status, 0, `mcpb unpack failed:\n${r.stdout}\n${r.stderr}`);
  return dir;
};

/** Every file under `dir` at 0600, as Claude Desktop on macOS extracts a bundle. */
function everyFile0600(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) fs.chmodSync(path.join(entry.parentPath ?? entry.path, entry.name), 0o600);
}

/** mcp_config as Claude Desktop computes it on `platform` for these user_config values. */
async function configOn(platform, dir, userConfig, pathSeparator) {
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  const real = Object.getOwnPropertyDescriptor(process, 'platform');
  Object.defineProperty(process, 'platform', { value: platform });
  try {
    return await getMcpConfigForManifest({ manifest, extensionPath: dir, systemDirs: {}, userConfig, pathSeparator });
  } finally {
    Object.defineProperty(process, 'platform', real);
  }
}

test('mcpb info reads the bundle: name, version, the four platforms inside', () => {
  const r = spawnSync(tools.mcpb, ['info', MCPB], { encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  assert.match(r.stdout, /mcp-edit/);
  assert.match(r.stdout, new RegExp(VERSION.replace(/\./g, '\\.')));
  const dir = unpacked();
  const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'manifest.json'), 'utf8'));
  assert.equal(manifest.server.type, 'node');
  assert.equal(manifest.license, 'MIT');
  for (const file of ['server/index.js', 'server/run-native.js', 'LICENSE', 'README.md'])
    assert.ok(fs.existsSync(path.join(dir, file)), `the bundle lacks ${file}`);
  assert.deepEqual(manifest.compatibility.platforms, ['darwin', 'win32', 'linux']);
  for (const exe of ['server/linux-x64/mcp-edit', 'server/win32-x64/mcp-edit.exe', 'server/darwin/mcp-edit'])
    assert.ok(fs.statSync(path.join(dir, exe)).size > 100000, `${exe} is missing or small`);
  // macOS: one universal executable holding both architectures.
  const lipo = spawnSync(tools.lipo, ['-archs', path.join(dir, 'server/darwin/mcp-edit')], { encoding: 'utf8' });
  assert.equal(lipo.stdout.trim().split(/\s+/).sort().join(' '), 'arm64 x86_64', lipo.stderr);
  assert.ok(fs.statSync(path.join(dir, 'server/linux-x64/mcp-edit')).mode & 0o100, 'the Linux entry is not executable');
});

test('the Linux entry, every file extracted at 0600: two folders, approval auto, respect_gitignore: edits in the second folder, not an ignored file', async () => {
  const dir = unpacked();
  everyFile0600(dir);
  const [first, second] = [scratchDir('mcpb-first-'), scratchDir('mcpb-second-')];
  fs.writeFileSync(path.join(second, 'notes.txt'), 'alpha\r\nbeta\r\n');
  fs.writeFileSync(path.join(second, '.gitignore'), 'secret.txt\n');
  fs.writeFileSync(path.join(second, 'secret.txt'), 'alpha\n');
  fs.mkdirSync(path.join(second, '.git'));
  const config = await configOn('linux', dir, { allowed_directories: [first, second], approval: 'auto', respect_gitignore: true }, '/');
  assert.equal(config.command, 'node');
  assert.deepEqual(config.args, [path.join(dir, 'server/index.js'), '--root', first, second, '--approval', 'auto', '--respect-gitignore=true']);
  // Claude Desktop runs `node` entries with the Node it ships; this test's Node stands in for it.
  const server = serve(process.execPath, config.args);
  try {
    const edited = await callTool(server, 'edit', { file_path: path.join(second, 'notes.txt'), old_string: 'beta', new_string: 'gamma' });
    assert.equal(edited.isError ?? false, false, JSON.stringify(edited));
    const refused = await callTool(server, 'edit', { file_path: path.join(second, 'secret.txt'), old_string: 'alpha', new_string: 'x' });
    assert.equal(refused.isError, true, JSON.stringify(refused));
    assert.equal(refused._meta?.['io.github.mcp-edit/reason'], 'ignored', JSON.stringify(refused));
  } finally {
    await server.close();
  }
  assert.equal(fs.readFileSync(path.join(second, 'notes.txt'), 'latin1'), 'alpha\r\ngamma\r\n');
  assert.equal(fs.readFileSync(path.join(second, 'secret.txt'), 'latin1'), 'alpha\n');
  assert.equal(fs.statSync(path.join(dir, 'server/linux-x64/mcp-edit')).mode & 0o777, 0o700 | 0o055,
    'the entry made the executable runnable (0755)');
});

// Windows' Node cannot be run here: node.exe 22 under Debian 12's Wine 8 fails at its first write to
// a piped stdout (EBADF). So the node entry's command is checked as the manifest gives it on win32,
// and the executable index.js starts there (server/win32-x64/mcp-edit.exe) runs under Wine with
// the arguments that follow index.js, from a bundle whose files are all 0600.
test('the Windows entry under Wine: node with index.js; its executable, with a folder as Windows names it and the defaults, edits the file', async () => {
  const dir = unpacked();
  everyFile0600(dir);
  const folder = scratchDir('mcpb-windows-');
  fs.writeFileSync(path.join(folder, 'notes.txt'), 'alpha\r\nbeta\r\n');
  const windowsFolder = 'Z:' + folder.replaceAll('/', '\\');
  const config = await configOn('win32', dir, { allowed_directories: [windowsFolder] }, '\\');
  assert.equal(config.command, 'node');
  assert.match(config.args[0], /server[\\/]index\.js$/);
  assert.deepEqual(config.args.slice(1), ['--root', windowsFolder, '--approval', 'ask', '--respect-gitignore=false']);
  const server = serve('wine', [path.join(dir, 'server/win32-x64/mcp-edit.exe'), ...config.args.slice(1)], { wine: true });
  try {
    const edited = await callTool(server, 'edit', { file_path: windowsFolder + '\\notes.txt', old_string: 'beta', new_string: 'gamma' });
    assert.equal(edited.isError ?? false, false, JSON.stringify(edited));
  } finally {
    await server.close();
  }
  assert.equal(fs.readFileSync(path.join(folder, 'notes.txt'), 'latin1'), 'alpha\r\ngamma\r\n');
});

test('the macOS tarballs hold mcp-edit, README.md and LICENSE in one folder', () => {
  for (const arch of ['arm64', 'x86_64']) {
    const tarball = path.join(DIST, `mcp-edit-${VERSION}-macos-${arch}.tar.gz`);
    const r = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const top = `mcp-edit-${VERSION}-macos-${arch}`;
    assert.deepEqual(r.stdout.trim().split('\n').sort(), [`${top}/`, `${top}/LICENSE`, `${top}/README.md`, `${top}/mcp-edit`]);
  }
});
