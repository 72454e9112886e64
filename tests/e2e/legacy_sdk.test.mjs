// mcp-edit driven by the official TypeScript SDK 1.32.2 (the legacy era: initialize handshake),
// the client most hosts embed today. The server runs behind tap.mjs so that every line it writes
// is validated against the official schema of the negotiated version at the end.
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { after, before, describe, test } from 'node:test';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import {
  SERVED_TOOLS, READ_CASES, annotationProblems, assertNoProblems, assertReadResult,
  assertReadTool, drain, makeTempDir, outputValidator, requireBinary,
  tappedServer, toolDefinitionProblems, validateTapDir, show, fixtureRoot,
} from './helpers.mjs';

requireBinary();
const { root, fixtures, boundary, tapDir } = fixtureRoot();

let client;
let transport;
let stderr;
let tools;
let validateRead;

before(async () => {
  transport = new StdioClientTransport(tappedServer(root, tapDir));
  stderr = drain(transport.stderr);
  client = new Client({ name: 'mcp-edit-e2e-legacy-sdk', version: '0.0.0' });
  await client.connect(transport);
});

after(async () => {
  await client?.close().catch(() => {});
});

const CALL_OPTS = { timeout: 5000 };

describe('handshake and tools/list (SDK 1.32.2)', () => {
  test('connects with 2025-11-25 and advertises tools + logging', () => {
    const caps = client.getServerCapabilities();
    assert.deepEqual(caps?.tools, { listChanged: false }, `capabilities.tools: ${show(caps)}`);
    assert.deepEqual(caps?.logging, {}, `capabilities.logging: ${show(caps)}`);
    const info = client.getServerVersion();
    assert.equal(typeof info?.name, 'string', `serverInfo: ${show(info)}`);
  });

  test('listTools shows read with title, annotations and valid 2020-12 schemas', async () => {
    ({ tools } = await client.listTools(undefined, CALL_OPTS));
    const read = assertReadTool(tools, 'SDK 1.32.2');
    validateRead = outputValidator(read);
  });

  test('tools/list has the contract\'s seven tools, in order, then changes, each well-formed', () => {
    assert.ok(tools, 'listTools did not run');
    const names = tools.map((t) => t.name);
    assert.deepEqual(names, SERVED_TOOLS, `tool names/order: expected ${show(SERVED_TOOLS)}, got ${show(names)}`);
    const problems = tools.flatMap((t) => [...toolDefinitionProblems(t), ...annotationProblems(t)]);
    for (const t of tools.filter((x) => x.annotations?.readOnlyHint !== true)) {
      if (!('dry_run' in (t.inputSchema?.properties ?? {}))) problems.push(`tool ${t.name}: mutating tools take dry_run`);
    }
    assertNoProblems(problems, 'tool definitions');
  });
});

describe('read through the SDK 1.32.2 client', () => {
  for (const [label, name, extra] of READ_CASES) {
    test(`read: ${label}`, async () => {
      const fx = fixtures[name];
      const args = { file_path: fx.path, ...extra };
      const result = await client.callTool({ name: 'read', arguments: args }, undefined, CALL_OPTS);
      assertReadResult(result, fx, args, label);
      if (validateRead) {
        const err = validateRead(result.structuredContent);
        assert.equal(err, null, `read ${label}: structuredContent does not match read's outputSchema: ${err}`);
      }
    });
  }

  test('read: a path relative to the first root', async () => {
    const fx = fixtures['crlf.txt'];
    const result = await client.callTool({ name: 'read', arguments: { file_path: 'crlf.txt' } }, undefined, CALL_OPTS);
    assertReadResult(result, fx, { file_path: 'crlf.txt' }, 'relative crlf.txt');
  });

  for (const [label, p, reason] of boundary) {
    test(`read refuses ${label} with isError`, async () => {
      const t0 = Date.now();
      const result = await client.callTool({ name: 'read', arguments: { file_path: p } }, undefined, CALL_OPTS);
      const ms = Date.now() - t0;
      assert.equal(result.isError, true, `read ${p} (${label}) must be refused with isError: true, got ${show(result).slice(0, 500)}`);
      const text = result.content?.[0]?.text;
      assert.ok(typeof text === 'string' && text.length > 10, `the refusal must tell the model why: ${show(result.content)}`);
      assert.match(text, reason, `read ${p} (${label}): the refusal must match ${reason}; it says ${show(text)}`);
      assert.ok(!String(text).includes('outside the root\n') || label === 'a missing file', `the refusal leaked the file's content: ${show(text)}`);
      assert.ok(ms < 3000, `refusing ${label} took ${ms} ms`);
    });
  }

  test('read with bad arguments is a tool error, not a protocol error', async () => {
    for (const args of [{}, { file_path: fixtures['lf.txt'].path, offset: 'two' }, { file_path: fixtures['lf.txt'].path, limit: 0 }]) {
      const result = await client.callTool({ name: 'read', arguments: args }, undefined, CALL_OPTS);
      assert.equal(result.isError, true, `read ${show(args)} must give isError: true, got ${show(result).slice(0, 400)}`);
    }
  });

  test('an unknown tool is JSON-RPC error -32602', async () => {
    await assert.rejects(
      client.callTool({ name: 'no_such_tool', arguments: {} }, undefined, CALL_OPTS),
      (err) => {
        assert.equal(err.code, -32602, `unknown tool: expected code -32602, got ${err.code} (${err.message})`);
        return true;
      });
  });
});

describe('utility methods', () => {
  test('ping answers {}', async () => {
    assert.deepEqual(await client.ping(CALL_OPTS), {});
  });

  test('logging/setLevel answers {}', async () => {
    assert.deepEqual(await client.setLoggingLevel('debug', CALL_OPTS), {});
    assert.deepEqual(await client.setLoggingLevel('warning', CALL_OPTS), {});
  });
});

describe('approval through elicitation (legacy era)', () => {
  test('edit asks with a decision form; apply writes, decline does not', async () => {
    const dir = makeTempDir();
    const file = path.join(dir, 'approve-me.txt');
    const original = 'one\ntwo\nthree\n';
    fs.writeFileSync(file, original);
    const tap = makeTempDir('mcp-edit-e2e-tap-');
    const tr = new StdioClientTransport(tappedServer(dir, tap));
    drain(tr.stderr);
    const c = new Client({ name: 'mcp-edit-e2e-legacy-elicit', version: '0.0.0' }, { capabilities: { elicitation: {} } });
    const asked = [];
    let answer = { action: 'accept', content: { decision: 'apply' } };
    c.setRequestHandler(ElicitRequestSchema, async (req) => {
      asked.push(req.params);
      return answer;
    });
    try {
      await c.connect(tr);
      await c.listTools(undefined, CALL_OPTS);
      const r1 = await c.callTool({ name: 'edit', arguments: { file_path: file, old_string: 'two', new_string: 'TWO' } }, undefined, { timeout: 10000 });
      assert.notEqual(r1.isError, true, `approved edit failed: ${show(r1).slice(0, 600)}`);
      assert.equal(asked.length, 1, `exactly one elicitation expected, got ${asked.length}`);
      const schema = asked[0].requestedSchema;
      const decision = schema?.properties?.decision;
      assert.ok(decision, `the form must have a "decision" field: ${show(schema)}`);
      assert.ok((schema.required ?? []).includes('decision'), `"decision" must be required: ${show(schema)}`);
      const values = (decision.enum ?? decision.oneOf?.map((o) => o.const) ?? []).slice().sort();
      assert.deepEqual(values, ['apply', 'apply_session', 'reject'], `decision choices: ${show(decision)}`);
      assert.equal(fs.readFileSync(file, 'utf8'), 'one\nTWO\nthree\n', 'the approved edit must be on disk');
      assert.equal(r1.structuredContent?.approval, 'user', `approval: ${show(r1.structuredContent)}`);

      answer = { action: 'decline' };
      const before2 = fs.readFileSync(file);
      const r2 = await c.callTool({ name: 'edit', arguments: { file_path: file, old_string: 'three', new_string: 'THREE' } }, undefined, { timeout: 10000 });
      assert.equal(r2.isError, true, `a declined edit must be isError: ${show(r2).slice(0, 400)}`);
      assert.deepEqual(fs.readFileSync(file), before2, 'a declined edit must write nothing');
    } finally {
      await c.close().catch(() => {});
    }
    const { problems, connections } = validateTapDir(tap);
    assertNoProblems(problems, 'elicitation session');
    assert.equal(connections.length, 1);
  });
});

describe('what the server wrote', () => {
  test('every server message validates against the negotiated schema; exit 0 on EOF', async () => {
    await client.close();
    const { connections, problems } = validateTapDir(tapDir);
    assert.equal(connections.length, 1, `expected one server process, got ${connections.length}`);
    const conn = connections[0];
    assert.equal(conn.validator.legacyVersion, '2025-11-25', `SDK 1.32.2 asks 2025-11-25; negotiated ${conn.validator.legacyVersion}`);
    assertNoProblems(problems, 'SDK 1.32.2 session');
    assert.ok(!conn.messages.some((m) => m.dir === 'c2s' && m.msg?.method === 'server/discover'), 'SDK 1.32.2 never probes');
    assert.deepEqual({ code: conn.exit?.code, signal: conn.exit?.signal }, { code: 0, signal: null },
      `the server must exit 0 after stdin EOF, got ${show(conn.exit)}; stderr tail:\n${stderr.text.slice(-1500)}`);
  });
});
