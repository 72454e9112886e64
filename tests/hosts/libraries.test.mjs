// The host matrix for the two MCP client LIBRARIES (not CLIs): Vercel's AI SDK (`@ai-sdk/mcp`,
// createMCPClient + its stdio transport) and LangChain.js (`@langchain/mcp-adapters`,
// MultiServerMCPClient with a stdio connection). An application built on either one never shows
// the MCP result to its model as is: the library turns it into the model's input. So there is no
// mock model here; each test plays the agent loop itself (the same ModelScript steps the CLI tests
// use), calls each tool the way the library's agent runtime does, converts the result with the
// library's OWN conversion, and records that as what the model sees:
//   - AI SDK: tools[name].execute(args) and then tools[name].toModelOutput({toolCallId, input,
//     output}), which is exactly what the `ai` package's createToolModelOutput does for a tool that
//     has toModelOutput (ai is not installed and not needed). The result is a ToolResultOutput;
//     for MCP tools {type: 'content', value: [{type: 'text', text}, ...]}: content[] only, with
//     structuredContent and isError dropped.
//   - LangChain: the tools run through LangGraph's prebuilt ToolNode (what createReactAgent runs),
//     which yields the ToolMessage the model gets (errors included: a tool that throws becomes
//     "Error: ...\n Please fix your mistakes." with status "error").
// What each library lists to its model is taken the same way: the AI SDK's jsonSchema of each
// tool's inputSchema (what `ai` sends a provider), LangChain's convertToOpenAITool (what
// bindTools sends).
//
// The server runs behind a small transparent stdio recorder (RECORDER below), so the tests also see
// the wire: which protocol each library negotiates, the capabilities it declares (elicitation,
// roots), and the raw results to compare the model's input with.
//
// Coverage per library (see /work/notes/host_common.md): (a) the tool list, (b) read of notes.txt,
// (c) edit of crlf.txt byte-exact with diff and summary in front of the model, (d) an error's whole
// message, all with --approval auto; (e) the default --approval ask (neither library declares
// elicitation by default, so the change is written at once), and for the AI SDK, whose client can
// take an elicitation handler, the form answered with decline and with Apply.
//
// Waiting for the server change (target behaviour in /work/notes/host_common.md): the AI SDK's
// declined form must name `--approval auto` and not blame a user (item 4), and LangChain's
// JSON-stringified one-block result must carry structuredContent.summary (item 2).
// Both libraries run on Node 20 (the AI SDK packages declare node >= 22; the MCP stdio path works).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { before, describe, it } from 'node:test';

import { createMCPClient, ElicitationRequestSchema } from '@ai-sdk/mcp';
import { StdioMCPTransport } from '@ai-sdk/mcp/mcp-stdio';
import { getErrorMessage } from '@ai-sdk/provider';
import { asSchema } from '@ai-sdk/provider-utils';
import { AIMessage } from '@langchain/core/messages';
import { convertToOpenAITool } from '@langchain/core/utils/function_calling';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { MultiServerMCPClient } from '@langchain/mcp-adapters';

import { BINARY, ModelScript, REPO, hostEnv, pickTool, scratch, serverArgs, shown } from './harness.mjs';

const TOOLS = ['read', 'edit', 'multiedit', 'write', 'insert', 'apply_diff', 'undo'];
const CRLF_EDITED = Buffer.from('one\r\nTWO\r\nthree\r\n');
const CRLF_ORIGINAL = Buffer.from('one\r\ntwo\r\nthree\r\n');
const NOT_FOUND = 'old_string was not found in the file';
const SESSION_MS = 30000; // one library session (spawn, list, three calls, close) takes well under 1 s

// ---------------------------------------------------------------------------------------------
// Shared pieces (could move into harness.mjs: the wire recorder, waitForBinary, readable()).

/**
 * A transparent stdio recorder run as `node -e RECORDER LOG BINARY ARGS...`: it starts the server,
 * passes bytes both ways unchanged and appends every JSON-RPC line to LOG as {dir, line}
 * (dir "c2s" client to server, "s2c" server to client). It forwards SIGTERM/SIGINT and exits with
 * the server.
 */
const RECORDER = `
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const [log, bin, ...args] = process.argv.slice(1);
const child = spawn(bin, args, { stdio: ['pipe', 'pipe', 'inherit'] });
const tap = (dir) => { let buf = ''; return (chunk) => {
  buf += chunk; let i;
  while ((i = buf.indexOf('\\n')) >= 0) {
    const line = buf.slice(0, i); buf = buf.slice(i + 1);
    if (line.trim()) fs.appendFileSync(log, JSON.stringify({ dir, line }) + '\\n');
  } }; };
const up = tap('c2s'); const down = tap('s2c');
process.stdin.setEncoding('utf8'); child.stdout.setEncoding('utf8');
child.stdin.on('error', () => {});
process.stdin.on('data', (c) => { up(c); child.stdin.write(c); });
process.stdin.on('end', () => child.stdin.end());
child.stdout.on('data', (c) => { down(c); process.stdout.write(c); });
child.on('exit', (code) => process.exit(code ?? 1));
for (const s of ['SIGTERM', 'SIGINT']) process.on(s, () => child.kill(s));
`;

/** The server command for a library's stdio config: recorder + mcp-edit, logging to a file. */
function serverCommand(area, extraFlags) {
  const wireLog = path.join(area.base, 'wire.jsonl');
  const serverLog = path.join(area.base, 'server.log');
  const args = ['-e', RECORDER, wireLog, BINARY,
    ...serverArgs(area.project, ['--log-file', serverLog, '--log-level', 'debug', ...extraFlags])];
  return { command: process.execPath, args, env: hostEnv(area.home), wireLog, serverLog };
}

/** The recorded wire: [{dir, msg}] in order. */
function readWire(wireLog) {
  if (!fs.existsSync(wireLog)) return [];
  return fs.readFileSync(wireLog, 'utf8').split('\n').filter(Boolean).map((l) => {
    const { dir, line } = JSON.parse(l);
    let msg;
    try { msg = JSON.parse(line); } catch { msg = { unparsed: line }; }
    return { dir, msg };
  });
}

/** The tools/call requests on the wire, each with its response: [{request, response}]. */
function toolCalls(wire) {
  const calls = [];
  for (const { dir, msg } of wire) {
    if (dir === 'c2s' && msg.method === 'tools/call') calls.push({ request: msg, response: undefined });
    if (dir === 's2c' && msg.id !== undefined && !msg.method) {
      const call = calls.find((c) => c.request.id === msg.id && c.response === undefined);
      if (call) call.response = msg;
    }
  }
  return calls;
}

/** The tail of a text file, for failure messages. */
function tail(file, chars = 2500) {
  if (!fs.existsSync(file)) return `(no ${path.basename(file)})`;
  const text = fs.readFileSync(file, 'utf8');
  return text.length > chars ? `…${text.slice(-chars)}` : text;
}

/** Waits (up to 60 s) for the binary, which another engineer may be rebuilding right now. */
async function waitForBinary() {
  for (let i = 0; i < 60 && !fs.existsSync(BINARY); i++) await new Promise((r) => setTimeout(r, 1000));
  assert.ok(fs.existsSync(BINARY), `mcp-edit binary not found at ${BINARY}: build it or set MCP_EDIT_BINARY`);
}

/** Rejects when `promise` takes longer than `ms`. */
function bounded(promise, ms, what) {
  let timer;
  const limit = new Promise((_, reject) => { timer = setTimeout(() => reject(new Error(`${what}: no answer within ${ms} ms`)), ms); });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

/**
 * The text to check a model input against: the text itself, plus, when it is JSON (LangChain
 * stringifies a text block that carries structuredContent), every string inside it, unescaped.
 * The model reads the same characters either way; this only undoes the JSON escaping of "\n"/"\t".
 */
function readable(text) {
  let parsed;
  try { parsed = JSON.parse(text); } catch { return text; }
  const strings = [];
  const walk = (v) => {
    if (typeof v === 'string') strings.push(v);
    else if (v && typeof v === 'object') Object.values(v).forEach(walk);
  };
  walk(parsed);
  return [text, ...strings].join('\n');
}

/** The model's steps for (b)-(d): read, edit of crlf.txt, edit whose old_string does not occur. */
function modelSteps(project) {
  return [
    { tool: 'read', args: { file_path: path.join(project, 'notes.txt') } },
    { tool: 'edit', args: { file_path: path.join(project, 'crlf.txt'), old_string: 'two', new_string: 'TWO' } },
    { tool: 'edit', args: { file_path: path.join(project, 'notes.txt'), old_string: 'delta line that is not there', new_string: 'x' } },
  ];
}

/**
 * Plays the agent loop of `script` against one library: `call(name, args, step)` runs the tool the
 * library's way and returns the model's input as text; each is recorded in script.seen.
 */
async function playScript(script, names, call) {
  for (let step = 0; ; step++) {
    const next = script.next(step);
    if (next.final !== undefined) return;
    const text = await call(pickTool(names, next.tool), next.args, step);
    script.record(step, text);
  }
}

/** What a failure message shows: the model's inputs, the wire's last lines, the server log. */
function context(script, session) {
  const wire = readWire(session.wireLog).slice(-8).map(({ dir, msg }) => `${dir} ${JSON.stringify(msg).slice(0, 600)}`).join('\n');
  return `${shown(script)}\n--- wire (last lines) ---\n${wire}\n--- server log ---\n${tail(session.serverLog)}`;
}

/** The input schema of each tool as the repository declares it (schemas/<tool>.json). */
function declaredSchema(tool) {
  return JSON.parse(fs.readFileSync(path.join(REPO, 'schemas', `${tool}.json`), 'utf8')).inputSchema;
}

/** Asserts the model-facing tool list: the seven tools, bare names, the declared input schemas. */
function assertToolList(listed) {
  assert.deepEqual(Object.keys(listed).sort(), [...TOOLS].sort(),
    `the library lists these tools to its model: ${Object.keys(listed).join(', ')}`);
  for (const tool of TOOLS) {
    const declared = declaredSchema(tool);
    const { description, parameters } = listed[tool];
    assert.ok(description && description.length > 20, `${tool}: no description for the model: ${JSON.stringify(description)}`);
    assert.equal(parameters.type, 'object', `${tool}: ${JSON.stringify(parameters)}`);
    assert.deepEqual(Object.keys(parameters.properties).sort(), Object.keys(declared.properties).sort(),
      `${tool}: the model sees other parameters than schemas/${tool}.json declares: ${JSON.stringify(parameters)}`);
    assert.deepEqual([...(parameters.required ?? [])].sort(), [...(declared.required ?? [])].sort(),
      `${tool}: the model sees other required parameters: ${JSON.stringify(parameters)}`);
  }
}

/** (b): the model's input for the read shows line 2 of notes.txt with its number. */
function assertReadShown(script, session) {
  const seen = script.seen.find((s) => s.step === 0);
  assert.ok(seen, `the read's result never reached the model\n${context(script, session)}`);
  assert.match(readable(seen.text), /^\s*2\tbeta line$/m,
    `the model does not see "beta line" as line 2 of notes.txt\n${context(script, session)}`);
}

/** (c): crlf.txt byte-exact on disk; the model's input at `step` has the hunk and the summary. */
function assertEditShown(script, session, project, step = 1) {
  const bytes = fs.readFileSync(path.join(project, 'crlf.txt'));
  assert.ok(bytes.equals(CRLF_EDITED), `crlf.txt on disk is ${JSON.stringify(bytes.toString('latin1'))}\n${context(script, session)}`);
  const seen = script.seen.find((s) => s.step === step);
  assert.ok(seen, `the edit's result never reached the model\n${context(script, session)}`);
  const text = readable(seen.text);
  assert.match(text, /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m, `no "@@" hunk in the model's input\n${context(script, session)}`);
  assert.match(text, /^-two\r?$/m, `no "-two" line in the model's input\n${context(script, session)}`);
  assert.match(text, /^\+TWO\r?$/m, `no "+TWO" line in the model's input\n${context(script, session)}`);
  // The summary line: names the file and the +additions -removals counts (README: "+a -r").
  assert.match(text, /crlf\.txt.*\(\+1 -1\b/, `no summary line for crlf.txt in the model's input\n${context(script, session)}`);
}

/** (d): the error's whole message (content[0].text of the raw result) reaches the model. */
function assertErrorShown(script, session) {
  const seen = script.seen.find((s) => s.step === 2);
  assert.ok(seen, `the error never reached the model\n${context(script, session)}`);
  const calls = toolCalls(readWire(session.wireLog)).filter((c) => c.request.params.arguments?.old_string === modelSteps('/').at(-1).args.old_string);
  const raw = calls.at(-1)?.response?.result;
  assert.ok(raw, `no reply to the failing edit on the wire\n${context(script, session)}`);
  assert.equal(raw.isError, true, `the failing edit is not isError: ${JSON.stringify(raw)}`);
  const message = raw.content?.[0]?.text ?? '';
  assert.ok(message.includes(NOT_FOUND), `the server's error does not say "${NOT_FOUND}": ${JSON.stringify(raw)}`);
  assert.ok(readable(seen.text).includes(message),
    `the model does not get the whole error message\n--- server's message ---\n${message}\n${context(script, session)}`);
}

// ---------------------------------------------------------------------------------------------
// Vercel AI SDK: @ai-sdk/mcp

/** The AI SDK's ToolResultOutput as the text the model reads (each text part; others as JSON). */
function aiSdkText(out) {
  switch (out.type) {
    case 'text':
    case 'error-text': return out.value;
    case 'content': return out.value.map((p) => (p.type === 'text' ? p.text : JSON.stringify(p))).join('\n');
    default: return JSON.stringify(out.value);
  }
}

/**
 * An AI SDK MCP client on mcp-edit (behind the recorder) with its tools. `clientOptions` go to
 * createMCPClient (e.g. capabilities); `onElicitation`, when given, is registered as its handler.
 */
async function aiSdkSession(area, extraFlags, { clientOptions = {}, onElicitation } = {}) {
  const server = serverCommand(area, extraFlags);
  const transport = new StdioMCPTransport({ command: server.command, args: server.args, env: server.env, cwd: area.project, stderr: 'pipe' });
  const client = await bounded(createMCPClient({ transport, ...clientOptions }), SESSION_MS, 'AI SDK createMCPClient');
  if (onElicitation) client.onElicitationRequest(ElicitationRequestSchema, onElicitation);
  const tools = await bounded(client.tools(), SESSION_MS, 'AI SDK client.tools()');
  const outputs = []; // [{name, args, output, modelOutput}]
  /** Runs a tool as `ai` does and returns the model's input as text. */
  const call = async (name, args, step) => {
    const tool = tools[name];
    const toolCallId = `call_${step}`;
    let modelOutput;
    let output;
    try {
      output = await bounded(tool.execute(args, { toolCallId, messages: [] }), SESSION_MS, `AI SDK ${name}`);
      modelOutput = await tool.toModelOutput({ toolCallId, input: args, output });
    } catch (e) {
      // `ai` turns a tool that throws into {type: 'error-text', value: getErrorMessage(error)}.
      modelOutput = { type: 'error-text', value: getErrorMessage(e) };
    }
    outputs.push({ name, args, output, modelOutput });
    return aiSdkText(modelOutput);
  };
  return { ...server, client, tools, call, outputs, close: () => client.close() };
}

describe('Vercel AI SDK (@ai-sdk/mcp 2.0.99)', () => {
  let area;
  let session;
  let listed;
  const script = new ModelScript([]);

  before(async () => {
    await waitForBinary();
    area = scratch('mcp-edit-aisdk-');
    script.steps = modelSteps(area.project);
    session = await aiSdkSession(area, ['--approval', 'auto']);
    listed = {};
    for (const [name, tool] of Object.entries(session.tools)) {
      // What `ai` hands a provider: {name, description, inputSchema: asSchema(...).jsonSchema}.
      listed[name] = { description: tool.description, parameters: await asSchema(tool.inputSchema).jsonSchema };
    }
    await playScript(script, Object.keys(session.tools), session.call);
    await session.close();
  });

  it('(a) lists the seven tools, bare names, with the declared input schemas', () => {
    assertToolList(listed);
  });

  it('speaks protocol 2026-07-28 (server/discover, stateless) and declares neither elicitation nor roots by default', () => {
    const wire = readWire(session.wireLog);
    const first = wire.find((w) => w.dir === 'c2s')?.msg;
    assert.equal(first?.method, 'server/discover', `first request: ${JSON.stringify(first)}`);
    assert.equal(session.client.initializeResult.protocolVersion, '2026-07-28');
    const call = toolCalls(wire)[0]?.request;
    const meta = call?.params?._meta ?? {};
    assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28', JSON.stringify(call));
    assert.deepEqual(meta['io.modelcontextprotocol/clientCapabilities'], {}, JSON.stringify(call));
    assert.ok(!wire.some((w) => w.msg.method === 'initialize'), 'the AI SDK also sent initialize');
  });

  it('(b) read: the numbered text reaches the model (content[] as text parts)', () => {
    assertReadShown(script, session);
    const out = session.outputs[0].modelOutput;
    assert.equal(out.type, 'content', JSON.stringify(out));
    assert.ok(out.value.every((p) => p.type === 'text'), JSON.stringify(out));
  });

  it('(c) edit of crlf.txt lands byte-exactly; diff and summary reach the model', () => {
    assertEditShown(script, session, area.project);
  });

  it('(d) an error reaches the model whole (as plain content: the isError flag is dropped)', () => {
    assertErrorShown(script, session);
    const { output, modelOutput } = session.outputs[2];
    assert.equal(output?.isError, true, 'execute() returns the isError result rather than throwing');
    assert.equal(modelOutput.type, 'content', `toModelOutput marks no error: ${JSON.stringify(modelOutput)}`);
  });

  it('(e) default --approval ask, no elicitation declared: written at once', async () => {
    const area2 = scratch('mcp-edit-aisdk-ask-');
    const s2 = new ModelScript([modelSteps(area2.project)[1]]);
    const ses = await aiSdkSession(area2, []);
    try {
      await playScript(s2, Object.keys(ses.tools), ses.call);
    } finally { await ses.close(); }
    assertEditShown(s2, ses, area2.project, 0);
    const raw = toolCalls(readWire(ses.wireLog)).at(-1)?.response?.result;
    assert.equal(raw?.structuredContent?.approval, 'policy', `${JSON.stringify(raw)}\n${context(s2, ses)}`);
  });

  it('(e) --approval ask with elicitation declared and the form declined: nothing written, the ways out reach the model', async () => {
    const area2 = scratch('mcp-edit-aisdk-decline-');
    const s2 = new ModelScript([modelSteps(area2.project)[1]]);
    const forms = [];
    const ses = await aiSdkSession(area2, [], {
      clientOptions: { capabilities: { elicitation: {} } },
      // An unattended application has nobody to show the form to: it declines.
      onElicitation: (request) => { forms.push(request); return { action: 'decline' }; },
    });
    try {
      await playScript(s2, Object.keys(ses.tools), ses.call);
    } finally { await ses.close(); }
    const bytes = fs.readFileSync(path.join(area2.project, 'crlf.txt'));
    assert.ok(bytes.equals(CRLF_ORIGINAL), `crlf.txt changed after a declined form: ${JSON.stringify(bytes.toString('latin1'))}`);
    assert.equal(forms.length, 1, `forms shown: ${JSON.stringify(forms)}\n${context(s2, ses)}`);
    assert.match(forms[0].params.message, /^\+TWO$/m, `the form does not show the diff: ${JSON.stringify(forms[0])}`);
    const wire = readWire(ses.wireLog);
    assert.ok(wire.some((w) => w.dir === 's2c' && w.msg.result?.resultType === 'input_required'),
      'the approval did not go through input_required (Multi Round-Trip Requests)');
    const text = s2.seen[0]?.text ?? '';
    assert.equal(ses.outputs[0].output?.isError, true, context(s2, ses));
    assert.ok(text.includes('--approval auto'), `the model is not told about --approval auto\n${context(s2, ses)}`);
    assert.ok(!/The user (cancelled|declined)/.test(text), `the model is told a user refused\n${context(s2, ses)}`);
  });

  it('(e) --approval ask with elicitation declared and Apply chosen: written, approval "user"', async () => {
    const area2 = scratch('mcp-edit-aisdk-apply-');
    const s2 = new ModelScript([modelSteps(area2.project)[1]]);
    const forms = [];
    const ses = await aiSdkSession(area2, [], {
      clientOptions: { capabilities: { elicitation: {} } },
      onElicitation: (request) => { forms.push(request); return { action: 'accept', content: { decision: 'apply' } }; },
    });
    try {
      await playScript(s2, Object.keys(ses.tools), ses.call);
    } finally { await ses.close(); }
    assert.equal(forms.length, 1, `forms shown: ${JSON.stringify(forms)}\n${context(s2, ses)}`);
    assertEditShown(s2, ses, area2.project, 0);
    const raw = toolCalls(readWire(ses.wireLog)).at(-1)?.response?.result;
    assert.equal(raw?.structuredContent?.approval, 'user', `${JSON.stringify(raw)}\n${context(s2, ses)}`);
  });
});

// ---------------------------------------------------------------------------------------------
// LangChain.js: @langchain/mcp-adapters

/** A ToolMessage's content as the text the model reads (text blocks; others as JSON). */
function toolMessageText(content) {
  if (typeof content === 'string') return content;
  return content.map((b) => (b.type === 'text' ? b.text : JSON.stringify(b))).join('\n');
}

/** A MultiServerMCPClient (defaults: no prefix, outputHandling unset) on mcp-edit as server "edit". */
async function langchainSession(area, extraFlags) {
  const server = serverCommand(area, extraFlags);
  const client = new MultiServerMCPClient({
    mcpServers: { edit: { transport: 'stdio', command: server.command, args: server.args, env: server.env, cwd: area.project, stderr: 'pipe' } },
  });
  const tools = await bounded(client.getTools(), SESSION_MS, 'LangChain getTools()');
  const node = new ToolNode(tools);
  const messages = []; // the ToolMessages, in order
  /** Runs a tool call through ToolNode, as createReactAgent does, and returns the ToolMessage's text. */
  const call = async (name, args, step) => {
    const ai = new AIMessage({ content: '', tool_calls: [{ id: `call_${step}`, name, args, type: 'tool_call' }] });
    const out = await bounded(node.invoke({ messages: [ai] }), SESSION_MS, `LangChain ${name}`);
    const message = out.messages[0];
    messages.push(message);
    return toolMessageText(message.content);
  };
  return { ...server, client, tools, call, messages, close: () => client.close() };
}

describe('LangChain.js (@langchain/mcp-adapters 1.1.4)', () => {
  let area;
  let session;
  let listed;
  const script = new ModelScript([]);

  before(async () => {
    await waitForBinary();
    area = scratch('mcp-edit-langchain-');
    script.steps = modelSteps(area.project);
    session = await langchainSession(area, ['--approval', 'auto']);
    listed = {};
    for (const tool of session.tools) {
      // What bindTools sends a chat model: {type: 'function', function: {name, description, parameters}}.
      const { function: fn } = convertToOpenAITool(tool);
      listed[fn.name] = { description: fn.description, parameters: fn.parameters };
    }
    await playScript(script, Object.keys(listed), session.call);
    await session.close();
  });

  it('(a) lists the seven tools, bare names, with the declared input schemas', () => {
    assertToolList(listed);
  });

  it('speaks protocol 2025-11-25 (initialize) and declares neither elicitation nor roots', () => {
    const wire = readWire(session.wireLog);
    const init = wire.find((w) => w.dir === 'c2s' && w.msg.method === 'initialize')?.msg;
    assert.ok(init, `no initialize on the wire: ${JSON.stringify(wire.slice(0, 2))}`);
    assert.equal(init.params.protocolVersion, '2025-11-25', JSON.stringify(init));
    assert.deepEqual(init.params.capabilities, {}, JSON.stringify(init));
    const reply = wire.find((w) => w.dir === 's2c' && w.msg.id === init.id)?.msg;
    assert.equal(reply?.result?.protocolVersion, '2025-11-25', JSON.stringify(reply));
  });

  it('(b) read: the numbered text reaches the model (content blocks; structuredContent only in the artifact)', () => {
    assertReadShown(script, session);
    const message = session.messages[0];
    assert.ok(Array.isArray(message.content), `ToolMessage content: ${JSON.stringify(message.content)}`);
  });

  it('(c) edit of crlf.txt lands byte-exactly; diff and summary reach the model', () => {
    assertEditShown(script, session, area.project);
  });

  it('(c) a one-block result reaches the model as JSON {type, text, structuredContent} whose structuredContent has diff and summary', () => {
    // One text block plus structuredContent: the adapter returns the block with structuredContent
    // attached, and @langchain/core JSON-stringifies it into the ToolMessage content.
    const content = session.messages[1]?.content;
    assert.equal(typeof content, 'string', `ToolMessage content: ${JSON.stringify(content)}`);
    const block = JSON.parse(content);
    assert.equal(block.type, 'text', content);
    assert.match(block.structuredContent?.diff ?? '', /^\+TWO$/m, content);
    // Target behaviour 2: structuredContent.summary is the summary line that starts content[0].
    assert.equal(typeof block.structuredContent?.summary, 'string', `no structuredContent.summary in what the model sees: ${content}`);
    assert.ok(block.text.startsWith(block.structuredContent.summary), `summary is not the first line of the text: ${content}`);
  });

  it('(d) an error reaches the model whole (thrown as ToolException, ToolNode makes it "Error: ...")', () => {
    assertErrorShown(script, session);
    const message = session.messages[2];
    assert.equal(message?.status, 'error', JSON.stringify(message));
  });

  it('(e) default --approval ask: no elicitation declared, written at once', async () => {
    const area2 = scratch('mcp-edit-langchain-ask-');
    const s2 = new ModelScript([modelSteps(area2.project)[1]]);
    const ses = await langchainSession(area2, []);
    try {
      await playScript(s2, ses.tools.map((t) => t.name), ses.call);
    } finally { await ses.close(); }
    assertEditShown(s2, ses, area2.project, 0);
    const raw = toolCalls(readWire(ses.wireLog)).at(-1)?.response?.result;
    assert.equal(raw?.structuredContent?.approval, 'policy', `${JSON.stringify(raw)}\n${context(s2, ses)}`);
  });
});
