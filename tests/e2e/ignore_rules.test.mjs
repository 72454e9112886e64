// Ignore rules through the official clients: SDK 1.x (legacy era) with --respect-gitignore, and
// client 2.4.0 (2026-07-28) with --ignore-reads. A refused change names the rule, its file and
// line and writes nothing; an ignore file edited meanwhile is read again on the next call; .git
// is never written. The same settings from a --config file, the command line winning over it.
// Every server line is validated against the MCP schema.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { Client as ModernClient } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernTransport } from '@modelcontextprotocol/client/stdio';
import {
  assertFile, assertNoProblems, drain, makeTempDir, requireBinary, show, tappedServer, textOf, validateTapDir,
} from './helpers.mjs';

requireBinary();

const REASON = 'io.github.mcp-edit/reason';

function tree() {
  const dir = makeTempDir();
  const put = (name, text) => {
    fs.mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    fs.writeFileSync(path.join(dir, name), text);
  };
  put('.mcp-editignore', '# generated\n*.gen.ts\n');
  put('.gitignore', 'build/\n');
  put('src/.mcp-editignore', '!keep.gen.ts\n');
  put('api.gen.ts', 'export const a = 1;\n');
  put('src/keep.gen.ts', 'export const k = 1;\n');
  put('build/out.js', 'x\n');
  put('.git/HEAD', 'ref: refs/heads/main\n');
  put('main.ts', 'let x = 1;\n');
  return { dir, put, file: (name) => path.join(dir, name) };
}

function assertIgnored(r, what, pattern) {
  assert.equal(r.isError, true, `${what}: must be refused: ${show(r).slice(0, 500)}`);
  assert.equal(r._meta?.[REASON], 'ignored', `${what}: reason: ${show(r._meta)}`);
  assert.match(textOf(r), pattern, `${what}: ${show(textOf(r))}`);
}

describe('ignore rules', { concurrency: true }, () => {
  test('SDK 1.x: rules from nested ignore files and .gitignore, refreshed when the file changes; .git never written', async () => {
    const t = tree();
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new StdioClientTransport(tappedServer(t.dir, tap, ['--respect-gitignore', '--approval', 'auto']));
    drain(tr.stderr);
    const client = new Client({ name: 'mcp-edit-e2e-ignore', version: '0.0.0' }, { capabilities: {} });
    await client.connect(tr);
    const call = (name, args) => client.callTool({ name, arguments: args });
    try {
      const gen = await call('edit', { file_path: t.file('api.gen.ts'), old_string: '1', new_string: '2' });
      assertIgnored(gen, 'a generated file', /^Refused: api\.gen\.ts is ignored by the rule `\*\.gen\.ts` \(\.mcp-editignore, line 2\)/);
      assertFile(t.file('api.gen.ts'), 'export const a = 1;\n', 'nothing written');

      const kept = await call('edit', { file_path: t.file('src/keep.gen.ts'), old_string: '1', new_string: '2' });
      assert.notEqual(kept.isError, true, `re-included by src/.mcp-editignore: ${show(kept).slice(0, 400)}`);

      const built = await call('write', { file_path: t.file('build/new.js'), content: 'y\n' });
      assertIgnored(built, 'under a .gitignore folder', /build\/new\.js is inside build, which is ignored by the rule `build\/` \(\.gitignore, line 1\)/);
      assert.equal(fs.existsSync(t.file('build/new.js')), false);

      const git = await call('write', { file_path: t.file('.git/HEAD'), content: 'ref: refs/heads/evil\n' });
      assertIgnored(git, '.git', /\.git\/HEAD is inside \.git, a Git repository's own folder/);

      const read = await call('read', { file_path: t.file('api.gen.ts') });
      assert.notEqual(read.isError, true, 'reads are allowed without --ignore-reads');

      // The user lifts the rule: the next call sees it.
      t.put('.mcp-editignore', '# nothing generated any more\n');
      const now = await call('edit', { file_path: t.file('api.gen.ts'), old_string: '1', new_string: '2' });
      assert.notEqual(now.isError, true, `the changed ignore file is read again: ${show(now).slice(0, 400)}`);
      assertFile(t.file('api.gen.ts'), 'export const a = 2;\n', 'written once the rule is gone');
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, 'ignore rules (SDK 1.x)');
  });

  test('SDK 1.x: the settings from --config (TOML; relative paths from its folder), the command line overriding', async () => {
    const t = tree();
    const settings = makeTempDir();
    fs.writeFileSync(path.join(settings, 'mcp-edit.toml'),
      `# team settings\napproval = "require"\nignore-file = [".mcp-editignore"]\nrespect-gitignore = true\nlog-file = "server.log"\n`);
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new StdioClientTransport(tappedServer(t.dir, tap, ['--config', path.join(settings, 'mcp-edit.toml'), '--approval', 'auto']));
    drain(tr.stderr);
    const client = new Client({ name: 'mcp-edit-e2e-config', version: '0.0.0' }, { capabilities: {} });
    await client.connect(tr);
    try {
      const built = await client.callTool({ name: 'write', arguments: { file_path: t.file('build/x.js'), content: 'y\n' } });
      assertIgnored(built, 'respect-gitignore from the file', /\(\.gitignore, line 1\)/);
      const ok = await client.callTool({ name: 'edit', arguments: { file_path: t.file('main.ts'), old_string: '1', new_string: '2' } });
      assert.notEqual(ok.isError, true, `--approval auto on the command line wins over the file's require: ${show(ok).slice(0, 400)}`);
      assert.equal(ok.structuredContent.approval, 'policy');
    } finally {
      await client.close().catch(() => {});
    }
    assert.ok(fs.existsSync(path.join(settings, 'server.log')), 'log-file = "server.log" is relative to the config file');
    assertNoProblems(validateTapDir(tap).problems, 'config file (SDK 1.x)');
  });

  test('client 2.4.0 (2026-07-28): --ignore-reads refuses reading an ignored file, and changing it', async () => {
    const t = tree();
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new ModernTransport(tappedServer(t.dir, tap, ['--ignore-reads', '--approval', 'auto']));
    drain(tr.stderr);
    const client = new ModernClient({ name: 'mcp-edit-e2e-ignore-modern', version: '0.0.0' }, { versionNegotiation: { mode: 'auto' } });
    await client.connect(tr, { timeout: 10000 });
    try {
      assert.equal(client.getProtocolEra(), 'modern');
      const read = await client.callTool({ name: 'read', arguments: { file_path: t.file('api.gen.ts') } });
      assertIgnored(read, 'read', /so this server does not read it \(--ignore-reads\)/);
      const edit = await client.callTool({ name: 'edit', arguments: { file_path: t.file('api.gen.ts'), old_string: '1', new_string: '2' } });
      assertIgnored(edit, 'edit', /ignored by the rule `\*\.gen\.ts` \(\.mcp-editignore, line 2\)/);
      const fine = await client.callTool({ name: 'read', arguments: { file_path: t.file('main.ts') } });
      assert.notEqual(fine.isError, true);
      assert.match(textOf(fine), /let x = 1;/);
    } finally {
      await client.close().catch(() => {});
    }
    assertNoProblems(validateTapDir(tap).problems, 'ignore rules (client 2.4.0)');
  });
});
