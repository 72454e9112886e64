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
// The server runs behind the harness's transparent stdio recorder (recordedServer), so the tests
// also see the wire: which protocol each library negotiates, the capabilities it declares
// (elicitation, roots), and the raw results to compare the model's input with.
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

import {
  CRLF_EDITED, ModelScript, REPO, TOOLS, assertCleanEnd, bounded, fixtures, hostEnv, modelCalls, onWire, pickTool, projectFile, readWire,
  readable, recordedServer, scratch, seenAt, serverArgs, serverEnded, serverLog, shown, tail, textIfAny, toolCalls, waitForBinary, wireTail,
} from './harness.mjs';

const NOT_FOUND = 'old_string was not found in the file';
const SESSION_MS = 30000; // one library session (spawn, list, three calls, close) takes well under 1 s

// ---------------------------------------------------------------------------------------------
// What both libraries share.

/** The server command for a library's stdio config: mcp-edit behind the recorder, logging to a file. */
function serverCommand(area, extraFlags) {
  const log = serverLog(area.base, 'debug');
  const server = recordedServer(area.base, serverArgs(area.project, [...log.flags, ...extraFlags]));
  return { ...server, env: hostEnv(area.home), log };
}

/**
 * One library session played to its end: a fresh scratch area (`prefix`), `open(area, flags,
 * options)` (a session: {toolNames, call, close, wireLog, log, ...}), the model playing the calls
 * `names` of modelCalls(project), then the session closed. Each call's result, as the library hands
 * it to its model, is recorded in script.seen. Returns {area, script, session, serverEnd (for
 * assertCleanEnd), context()}.
 */
async function play(prefix, open, names, flags, options) {
  const area = scratch(prefix);
  const script = new ModelScript(modelCalls(area.project, ...names));
  const session = await open(area, flags, options);
  try {
    for (let step = 0; ; step++) {
      const next = script.next(step);
      if (next.final !== undefined) break;
      script.record(step, await session.call(pickTool(session.toolNames, next.tool), next.args, step));
    }
  } finally { await session.close(); }
  // How the server ended (the library closed the session: stdin EOF or a signal; see serverEnded).
  const serverEnd = await serverEnded(session.watch);
  /** What a failure message shows: the model's inputs, the wire's last lines, the server log. */
  const context = () => `${shown(script)}\n--- wire (last lines) ---\n${wireTail(readWire(session.wireLog))}` +
    `\n--- server log ---\n${tail(textIfAny(session.log.file), 2500) || '(no log)'}`;
  return { area, script, session, serverEnd, context };
}

/** The raw result of the session's last tools/call, from the wire. */
const lastResult = (r) => toolCalls(readWire(r.session.wireLog)).at(-1)?.response?.result;

/** The input schema of each tool as the repository declares it (schemas/<tool>.json). */
function declaredSchema(tool) {
  return JSON.parse(fs.readFileSync(path.join(REPO, 'schemas', `${tool}.json`), 'utf8')).inputSchema;
}

/** Asserts the model-facing tool list: the thirteen tools, bare names, the declared input schemas. */
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
function assertReadShown(r) {
  assert.match(readable(seenAt(r, 0)), /^\s*2\tbeta line$/m,
    `the model does not see "beta line" as line 2 of notes.txt\n${r.context()}`);
}

/** (c): crlf.txt byte-exact on disk; the model's input at `step` has the hunk and the summary. */
function assertEditShown(r, step = 1) {
  const bytes = projectFile(r.area.project, 'crlf.txt');
  assert.ok(bytes.equals(CRLF_EDITED), `crlf.txt on disk is ${JSON.stringify(bytes.toString('latin1'))}\n${r.context()}`);
  const text = readable(seenAt(r, step));
  assert.match(text, /^@@ -\d+(,\d+)? \+\d+(,\d+)? @@/m, `no "@@" hunk in the model's input\n${r.context()}`);
  assert.match(text, /^-two\r?$/m, `no "-two" line in the model's input\n${r.context()}`);
  assert.match(text, /^\+TWO\r?$/m, `no "+TWO" line in the model's input\n${r.context()}`);
  // The summary line: names the file and the +additions -removals counts (README: "+a -r").
  assert.match(text, /crlf\.txt.*\(\+1 -1\b/, `no summary line for crlf.txt in the model's input\n${r.context()}`);
}

/** (d): the error's whole message (content[0].text of the raw result) reaches the model. */
function assertErrorShown(r) {
  const seen = seenAt(r, 2);
  const missing = modelCalls('', 'missing')[0].args.old_string;
  const calls = toolCalls(readWire(r.session.wireLog)).filter((c) => c.request.params.arguments?.old_string === missing);
  const raw = calls.at(-1)?.response?.result;
  assert.ok(raw, `no reply to the failing edit on the wire\n${r.context()}`);
  assert.equal(raw.isError, true, `the failing edit is not isError: ${JSON.stringify(raw)}`);
  const message = raw.content?.[0]?.text ?? '';
  assert.ok(message.includes(NOT_FOUND), `the server's error does not say "${NOT_FOUND}": ${JSON.stringify(raw)}`);
  assert.ok(readable(seen).includes(message),
    `the model does not get the whole error message\n--- server's message ---\n${message}\n${r.context()}`);
}

/** (e): the change went through the policy ("policy") or a form the user answered ("user"). */
function assertApproval(r, approval) {
  const raw = lastResult(r);
  assert.equal(raw?.structuredContent?.approval, approval, `${JSON.stringify(raw)}\n${r.context()}`);
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
  const listed = {};
  for (const [name, tool] of Object.entries(tools)) {
    // What `ai` hands a provider: {name, description, inputSchema: asSchema(...).jsonSchema}.
    listed[name] = { description: tool.description, parameters: await asSchema(tool.inputSchema).jsonSchema };
  }
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
  return { ...server, client, tools, toolNames: Object.keys(tools), listed, call, outputs, close: () => client.close() };
}

describe('Vercel AI SDK (@ai-sdk/mcp 2.0.99)', () => {
  let r;

  before(async () => {
    await waitForBinary();
    r = await play('mcp-edit-aisdk-', aiSdkSession, ['read', 'edit', 'missing'], ['--approval', 'auto']);
  });

  it('(a) lists the thirteen tools, bare names, with the declared input schemas', () => {
    assertToolList(r.session.listed);
  });

  it('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  it('speaks protocol 2026-07-28 (server/discover, stateless) and declares neither elicitation nor roots by default', () => {
    const wire = readWire(r.session.wireLog);
    const first = wire.find((w) => w.dir === 'c2s')?.msg;
    assert.equal(first?.method, 'server/discover', `first request: ${JSON.stringify(first)}`);
    assert.equal(r.session.client.initializeResult.protocolVersion, '2026-07-28');
    const call = toolCalls(wire)[0]?.request;
    const meta = call?.params?._meta ?? {};
    assert.equal(meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28', JSON.stringify(call));
    assert.deepEqual(meta['io.modelcontextprotocol/clientCapabilities'], {}, JSON.stringify(call));
    assert.ok(!wire.some((w) => w.msg.method === 'initialize'), 'the AI SDK also sent initialize');
  });

  it('(b) read: the numbered text reaches the model (content[] as text parts)', () => {
    assertReadShown(r);
    const out = r.session.outputs[0].modelOutput;
    assert.equal(out.type, 'content', JSON.stringify(out));
    assert.ok(out.value.every((p) => p.type === 'text'), JSON.stringify(out));
  });

  it('(c) edit of crlf.txt lands byte-exactly; diff and summary reach the model', () => {
    assertEditShown(r);
  });

  it('(d) an error reaches the model whole (as plain content: the isError flag is dropped)', () => {
    assertErrorShown(r);
    const { output, modelOutput } = r.session.outputs[2];
    assert.equal(output?.isError, true, 'execute() returns the isError result rather than throwing');
    assert.equal(modelOutput.type, 'content', `toModelOutput marks no error: ${JSON.stringify(modelOutput)}`);
  });

  it('(e) default --approval ask, no elicitation declared: written at once', async () => {
    const ask = await play('mcp-edit-aisdk-ask-', aiSdkSession, ['edit'], []);
    assertEditShown(ask, 0);
    assertApproval(ask, 'policy');
    assertCleanEnd(ask);
  });

  it('(e) --approval ask with elicitation declared and the form declined: nothing written, the ways out reach the model', async () => {
    const forms = [];
    const declined = await play('mcp-edit-aisdk-decline-', aiSdkSession, ['edit'], [], {
      clientOptions: { capabilities: { elicitation: {} } },
      // An unattended application has nobody to show the form to: it declines.
      onElicitation: (request) => { forms.push(request); return { action: 'decline' }; },
    });
    const bytes = projectFile(declined.area.project, 'crlf.txt');
    assert.ok(bytes.equals(fixtures()['crlf.txt']), `crlf.txt changed after a declined form: ${JSON.stringify(bytes.toString('latin1'))}`);
    assert.equal(forms.length, 1, `forms shown: ${JSON.stringify(forms)}\n${declined.context()}`);
    assert.match(forms[0].params.message, /^\+TWO$/m, `the form does not show the diff: ${JSON.stringify(forms[0])}`);
    const wire = readWire(declined.session.wireLog);
    assert.ok(wire.some((w) => w.dir === 's2c' && w.msg.result?.resultType === 'input_required'),
      'the approval did not go through input_required (Multi Round-Trip Requests)');
    const text = declined.script.seen[0]?.text ?? '';
    assert.equal(declined.session.outputs[0].output?.isError, true, declined.context());
    assert.ok(text.includes('--approval auto'), `the model is not told about --approval auto\n${declined.context()}`);
    assert.ok(!/The user (cancelled|declined)/.test(text), `the model is told a user refused\n${declined.context()}`);
    assertCleanEnd(declined);
  });

  it('(e) --approval ask with elicitation declared and Apply chosen: written, approval "user"', async () => {
    const forms = [];
    const applied = await play('mcp-edit-aisdk-apply-', aiSdkSession, ['edit'], [], {
      clientOptions: { capabilities: { elicitation: {} } },
      onElicitation: (request) => { forms.push(request); return { action: 'accept', content: { decision: 'apply' } }; },
    });
    assert.equal(forms.length, 1, `forms shown: ${JSON.stringify(forms)}\n${applied.context()}`);
    assertEditShown(applied, 0);
    assertApproval(applied, 'user');
    assertCleanEnd(applied);
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
  const listed = {};
  for (const tool of tools) {
    // What bindTools sends a chat model: {type: 'function', function: {name, description, parameters}}.
    const { function: fn } = convertToOpenAITool(tool);
    listed[fn.name] = { description: fn.description, parameters: fn.parameters };
  }
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
  return { ...server, client, tools, toolNames: tools.map((t) => t.name), listed, call, messages, close: () => client.close() };
}

describe('LangChain.js (@langchain/mcp-adapters 1.1.4)', () => {
  let r;

  before(async () => {
    await waitForBinary();
    r = await play('mcp-edit-langchain-', langchainSession, ['read', 'edit', 'missing'], ['--approval', 'auto']);
  });

  it('(a) lists the thirteen tools, bare names, with the declared input schemas', () => {
    assertToolList(r.session.listed);
  });

  it('mcp-edit exited 0 and logged no warning or error', () => assertCleanEnd(r));

  it('speaks protocol 2025-11-25 (initialize) and declares neither elicitation nor roots', () => {
    const wire = readWire(r.session.wireLog);
    const init = onWire(wire, 'c2s', 'initialize')[0]?.msg;
    assert.ok(init, `no initialize on the wire: ${JSON.stringify(wire.slice(0, 2))}`);
    assert.equal(init.params.protocolVersion, '2025-11-25', JSON.stringify(init));
    assert.deepEqual(init.params.capabilities, {}, JSON.stringify(init));
    const reply = wire.find((w) => w.dir === 's2c' && w.msg.id === init.id)?.msg;
    assert.equal(reply?.result?.protocolVersion, '2025-11-25', JSON.stringify(reply));
  });

  it('(b) read: the numbered text reaches the model (content blocks; structuredContent only in the artifact)', () => {
    assertReadShown(r);
    const message = r.session.messages[0];
    assert.ok(Array.isArray(message.content), `ToolMessage content: ${JSON.stringify(message.content)}`);
  });

  it('(c) edit of crlf.txt lands byte-exactly; diff and summary reach the model', () => {
    assertEditShown(r);
  });

  it('(c) a one-block result reaches the model as JSON {type, text, structuredContent} whose structuredContent has diff and summary', () => {
    // One text block plus structuredContent: the adapter returns the block with structuredContent
    // attached, and @langchain/core JSON-stringifies it into the ToolMessage content.
    const content = r.session.messages[1]?.content;
    assert.equal(typeof content, 'string', `ToolMessage content: ${JSON.stringify(content)}`);
    const block = JSON.parse(content);
    assert.equal(block.type, 'text', content);
    assert.match(block.structuredContent?.diff ?? '', /^\+TWO$/m, content);
    // Target behaviour 2: structuredContent.summary is the summary line that starts content[0].
    assert.equal(typeof block.structuredContent?.summary, 'string', `no structuredContent.summary in what the model sees: ${content}`);
    assert.ok(block.text.startsWith(block.structuredContent.summary), `summary is not the first line of the text: ${content}`);
  });

  it('(d) an error reaches the model whole (thrown as ToolException, ToolNode makes it "Error: ...")', () => {
    assertErrorShown(r);
    const message = r.session.messages[2];
    assert.equal(message?.status, 'error', JSON.stringify(message));
  });

  it('(e) default --approval ask: no elicitation declared, written at once', async () => {
    const ask = await play('mcp-edit-langchain-ask-', langchainSession, ['edit'], []);
    assertEditShown(ask, 0);
    assertApproval(ask, 'policy');
    assertCleanEnd(ask);
  });
});
