// The places that list the tools cannot drift from what the binary serves: the .mcpb manifest
// (what Claude Desktop shows before install) and the e2e helpers' SERVED_TOOLS list every tool a
// model may call, in the order of tools/list; the review view's decision tool (`review`, for the
// view alone) is listed to a client that renders MCP Apps and to no other legacy client.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { test } from 'node:test';
import { fileURLToPath } from 'node:url';
import { SERVED_TOOLS, makeTempDir, requireBinary, show, withRawSession } from './helpers.mjs';

requireBinary();
const here = path.dirname(fileURLToPath(import.meta.url));
const manifest = JSON.parse(fs.readFileSync(path.join(here, '../../packaging/mcpb/manifest.json'), 'utf8'));
const APPS = { extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } } };

async function toolNames(capabilities) {
  let names;
  await withRawSession('tool lists', ['--root', makeTempDir('tool-lists')], async (s) => {
    await s.initialize('2025-11-25', capabilities);
    const r = await s.request(1, 'tools/list', {});
    names = r.result.tools.map((t) => t.name);
  }, { cleanExit: true });
  return names;
}

test('the .mcpb manifest and SERVED_TOOLS list exactly the tools a model is served, in order', async () => {
  const served = await toolNames({});
  assert.deepEqual(manifest.tools.map((t) => t.name), served,
    `packaging/mcpb/manifest.json's tools: expected ${show(served)}, got ${show(manifest.tools.map((t) => t.name))}`);
  assert.deepEqual(SERVED_TOOLS, served, `tests/e2e/helpers.mjs SERVED_TOOLS: expected ${show(served)}`);
  for (const name of served) assert.ok(manifest.long_description.includes(name), `long_description names ${name}`);
});

test('a client that renders MCP Apps also gets the app-only decision tool, last', async () => {
  const served = await toolNames(APPS);
  assert.deepEqual(served, [...SERVED_TOOLS, 'review'], `tools/list for Claude Desktop: ${show(served)}`);
});
