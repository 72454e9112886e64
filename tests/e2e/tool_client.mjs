// A tool-calling session through the official SDK client (1.32.2), for e2e tests that only call
// tools: the server behind tap.mjs, every message it writes checked against the MCP schema, the
// client closed at the end. The SDK client also validates structuredContent against each tool's
// outputSchema.
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { assertNoProblems, drain, makeTempDir, tappedServer, validateTapDir } from './helpers.mjs';

/**
 * Runs `body(call)` against mcp-edit on the root `dir` (with `extra` arguments); `call(name, args)`
 * calls a tool and resolves to its result. `label` names the client and the problems found.
 */
export async function withToolClient(dir, label, extra, body) {
  const tap = makeTempDir('mcp-edit-e2e-tap-');
  const tr = new StdioClientTransport(tappedServer(dir, tap, extra));
  drain(tr.stderr);
  const client = new Client({ name: `mcp-edit-e2e-${label}`, version: '0.0.0' }, { capabilities: {} });
  await client.connect(tr);
  try {
    await body((name, args) => client.callTool({ name, arguments: args }, undefined, { timeout: 10000 }));
  } finally {
    await client.close().catch(() => {});
  }
  assertNoProblems(validateTapDir(tap).problems, label);
}
