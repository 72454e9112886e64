// `mcp-edit config HOST` prints blocks that work as pasted: each goes, unchanged, into the host's
// own configuration file in a scratch HOME, and the host's own `mcp list` finds the server (Claude
// Code and Gemini CLI also start it and report it connected; Codex lists it without starting it).
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';

import { BIN, BINARY, hostEnv, requireBinary, runHost, scratch, tail } from './harness.mjs';

/** What `mcp-edit config host ...args` prints: the block (stdout) and where it goes (stderr). */
function configBlock(cwd, host, ...args) {
  const r = spawnSync(BINARY, ['config', host, ...args], { cwd, encoding: 'utf8' });
  assert.equal(r.status, 0, `mcp-edit config ${host} exited ${r.status}: ${r.stderr}`);
  return { text: r.stdout, where: r.stderr };
}

function write(file, text) {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, text);
}

async function mcpList(host, home, cwd) {
  const r = await runHost(BIN(host), ['mcp', 'list'], { env: hostEnv(home, { CODEX_HOME: path.join(home, '.codex') }), cwd, timeoutMs: 90000 });
  return { ...r, shown: `${host} mcp list exited ${r.code}${r.timedOut ? ' (timed out)' : ''}\nstdout:\n${tail(r.stdout)}\nstderr:\n${tail(r.stderr)}` };
}

test('the claude-code block in .mcp.json: Claude Code connects to the server', async () => {
  requireBinary();
  const s = scratch('mcp-edit-config-');
  const block = configBlock(s.project, 'claude-code');
  assert.match(block.where, /\.mcp\.json/);
  write(path.join(s.project, '.mcp.json'), block.text);
  // Project servers wait for the user's approval; this stands for it.
  write(path.join(s.home, '.claude', 'settings.json'), JSON.stringify({ enableAllProjectMcpServers: true }));
  const r = await mcpList('claude', s.home, s.project);
  assert.match(r.stdout, new RegExp(`edit: ${BINARY.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}.*Connected`), r.shown);
});

test('the gemini block in ~/.gemini/settings.json: Gemini CLI connects to the server', async () => {
  requireBinary();
  const s = scratch('mcp-edit-config-');
  const block = configBlock(s.project, 'gemini', '--root', '.', '--', '--approval', 'auto');
  const settings = JSON.parse(block.text);
  assert.deepEqual(settings.mcpServers.edit.args, ['--root', s.project, '--approval', 'auto']);
  // The block merged into a settings file that holds more (folder trust off: a scratch project).
  write(path.join(s.home, '.gemini', 'settings.json'), JSON.stringify({ ...settings, security: { folderTrust: { enabled: false } } }));
  const r = await mcpList('gemini', s.home, s.project);
  assert.match(r.stdout + r.stderr, /✓ edit: .*Connected/, r.shown);
});

test('the codex block appended to ~/.codex/config.toml: Codex lists the server with its arguments', async () => {
  requireBinary();
  const s = scratch('mcp-edit-config-');
  const block = configBlock(s.project, 'codex', '--root', s.project);
  write(path.join(s.home, '.codex', 'config.toml'), 'model = "gpt-5"\n\n' + block.text);
  const r = await mcpList('codex', s.home, s.project);
  assert.equal(r.code, 0, r.shown);
  const row = r.stdout.split('\n').find((l) => l.startsWith('edit '));
  assert.ok(row, `no "edit" row in codex mcp list\n${r.shown}`);
  assert.ok(row.includes(BINARY) && row.includes(`--root ${s.project}`) && /enabled/.test(row), `${row}\n${r.shown}`);
});
