// The .mcpb bundle as Claude Desktop meets it: `mcpb info` reads it, `mcpb unpack` unpacks it, the
// manifest's mcp_config gets ${__dirname} and the user_config values substituted by the same code
// (@anthropic-ai/mcpb's getMcpConfigForManifest), and the Linux and Windows (Wine) entries then edit a file.
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
  assert.equal(manifest.server.type, 'binary');
  assert.deepEqual(manifest.compatibility.platforms, ['darwin', 'win32', 'linux']);
  for (const exe of ['server/linux-x64/mcp-edit', 'server/win32-x64/mcp-edit.exe', 'server/darwin/mcp-edit'])
    assert.ok(fs.statSync(path.join(dir, exe)).size > 100000, `${exe} is missing or small`);
  // macOS: one universal executable holding both architectures.
  const lipo = spawnSync(tools.lipo, ['-archs', path.join(dir, 'server/darwin/mcp-edit')], { encoding: 'utf8' });
  assert.equal(lipo.stdout.trim().split(/\s+/).sort().join(' '), 'arm64 x86_64', lipo.stderr);
  assert.ok(fs.statSync(path.join(dir, 'server/linux-x64/mcp-edit')).mode & 0o100, 'the Linux entry is not executable');
});

test('the Linux entry: two folders, approval auto, respect_gitignore: edits in the second folder, not an ignored file', async () => {
  const dir = unpacked();
  const [first, second] = [scratchDir('mcpb-first-'), scratchDir('mcpb-second-')];
  fs.writeFileSync(path.join(second, 'notes.txt'), 'alpha\r\nbeta\r\n');
  fs.writeFileSync(path.join(second, '.gitignore'), 'secret.txt\n');
  fs.writeFileSync(path.join(second, 'secret.txt'), 'alpha\n');
  fs.mkdirSync(path.join(second, '.git'));
  const config = await configOn('linux', dir, { allowed_directories: [first, second], approval: 'auto', respect_gitignore: true }, '/');
  assert.equal(config.command, path.join(dir, 'server/linux-x64/mcp-edit'));
  assert.deepEqual(config.args, ['--root', first, second, '--approval', 'auto', '--respect-gitignore=true']);
  const server = serve(config.command, config.args);
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
});

test('the Windows entry under Wine: a folder as Windows names it, the defaults: edits the file', async () => {
  const dir = unpacked();
  const folder = scratchDir('mcpb-windows-');
  fs.writeFileSync(path.join(folder, 'notes.txt'), 'alpha\r\nbeta\r\n');
  const windowsFolder = 'Z:' + folder.replaceAll('/', '\\');
  const config = await configOn('win32', dir, { allowed_directories: [windowsFolder] }, '\\');
  assert.equal(config.command, path.join(dir, 'server/win32-x64/mcp-edit.exe'));
  assert.deepEqual(config.args, ['--root', windowsFolder, '--approval', 'ask', '--respect-gitignore=false']);
  const server = serve('wine', [config.command, ...config.args], { wine: true });
  try {
    const edited = await callTool(server, 'edit', { file_path: windowsFolder + '\\notes.txt', old_string: 'beta', new_string: 'gamma' });
    assert.equal(edited.isError ?? false, false, JSON.stringify(edited));
  } finally {
    await server.close();
  }
  assert.equal(fs.readFileSync(path.join(folder, 'notes.txt'), 'latin1'), 'alpha\r\ngamma\r\n');
});

test('the macOS tarballs hold mcp-edit and README.md in one folder', () => {
  for (const arch of ['arm64', 'x86_64']) {
    const tarball = path.join(DIST, `mcp-edit-${VERSION}-macos-${arch}.tar.gz`);
    const r = spawnSync('tar', ['-tzf', tarball], { encoding: 'utf8' });
    assert.equal(r.status, 0, r.stderr);
    const top = `mcp-edit-${VERSION}-macos-${arch}`;
    assert.deepEqual(r.stdout.trim().split('\n').sort(), [`${top}/`, `${top}/README.md`, `${top}/mcp-edit`]);
  }
});
