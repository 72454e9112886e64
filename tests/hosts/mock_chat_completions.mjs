// A mock OpenAI Chat Completions endpoint that plays the model for the hosts that speak that
// protocol (Qwen Code, opencode), plus two helpers their tests share.
//
// The mock answers POST /v1/chat/completions, streaming (SSE `data:` chunks with
// delta.tool_calls / delta.content, finish_reason, `data: [DONE]`) or not, and GET /v1/models.
// What it answers comes from a ModelScript (harness.mjs): one tool call per step, then the final
// answer. Each `role: "tool"` message the host sends back is recorded in script.seen with its
// content exactly as sent (a string as is; an array of content parts JSON-stringified): that is
// what the model reads. Requests that offer no tools (title generation, summaries) are side
// requests: they get a short text and do not advance the script. Requests to any other path
// get a 404 and stay in `requests`, so a test can point a host's downloads (npm registry,
// model catalogue) here and assert that none happened.
//
// Helpers: modelText() turns a recorded tool result into the plain text the model reads, and
// referenceReply() asks mcp-edit itself (no host in between) for the reply to one call, so a
// test can check that the whole of it reached the model.
import { spawn } from 'node:child_process';
import readline from 'node:readline';
import { BINARY, pickTool, serverArgs, startHttp } from './harness.mjs';

/** The text of a message's content: a string as is; anything else JSON-stringified. */
function contentText(content) {
  return typeof content === 'string' ? content : JSON.stringify(content);
}

/** The names of the function tools a Chat Completions request offers the model. */
function toolNames(body) {
  return (body?.tools || []).map((t) => t?.function?.name ?? t?.name).filter(Boolean);
}

/** Every text of a request's messages (string contents and text parts), joined by newlines. */
export function messagesText(body) {
  const texts = [];
  for (const m of body?.messages || []) {
    if (typeof m.content === 'string') texts.push(m.content);
    else if (Array.isArray(m.content)) for (const p of m.content) if (typeof p?.text === 'string') texts.push(p.text);
  }
  return texts.join('\n');
}

/**
 * The plain text the model reads in a recorded tool result: a string as is; a JSON array of
 * content parts ({type: "text", text}) with its texts concatenated.
 */
export function modelText(recorded) {
  try {
    const parts = JSON.parse(recorded);
    if (Array.isArray(parts)) return parts.map((p) => (typeof p?.text === 'string' ? p.text : '')).join('');
  } catch { /* a plain string */ }
  return recorded;
}

/** The tool call id the mock gives step `step`; tool results name it, so they map back to steps. */
const callId = (step) => `call_step${step}`;
const stepOf = (id) => {
  const m = /^call_step(\d+)/.exec(String(id ?? ''));
  return m ? Number(m[1]) : undefined;
};

/** The default way a step becomes a call: the offered tool named like step.tool. */
function directCall(step, names) {
  return { name: pickTool(names, step.tool), args: step.args };
}

/**
 * Starts the mock for `script` (a ModelScript). Options: `model` (the id GET /v1/models lists),
 * `sideText` (the answer to side requests), `route(step, names, body)` (turns a step into the
 * call {name, args} the model makes, or throws when the host offers no way to make it; default:
 * the offered tool named like step.tool; a host that hides MCP tools behind a bridge tool routes
 * through the bridge). Returns startHttp's {url, port, requests, close} plus: `baseURL`
 * (url + "/v1"), `firstToolRequest` (the body of the first request that offered tools: the
 * conversation's start as the model sees it), `tools` / `toolNames` (its tool definitions),
 * `turns` (what the mock answered, in order: {at, kind: "tool"|"final"|"side"|"error", name?,
 * args?, text?, stream}) and `sideRequests` (the bodies of requests without tools).
 */
export async function startChatMock(script, { model = 'mock-model', sideText = 'Mock title', route = directCall } = {}) {
  const state = { first: null, turns: [], sideRequests: [] };
  let counter = 0;

  function answer(res, body, message, finishReason) {
    const id = `chatcmpl-mock-${++counter}`;
    const created = Math.floor(Date.now() / 1000);
    const usage = { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 };
    if (!body.stream) {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({
        id, object: 'chat.completion', created, model: body.model ?? model,
        choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason, logprobs: null }],
        usage,
      }));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    const chunk = (choices, extra = {}) =>
      res.write(`data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created, model: body.model ?? model, choices, ...extra })}\n\n`);
    chunk([{ index: 0, delta: { role: 'assistant', content: '' }, finish_reason: null }]);
    if (message.content) chunk([{ index: 0, delta: { content: message.content }, finish_reason: null }]);
    for (const [index, call] of (message.tool_calls || []).entries()) {
      // The id, type and name first, then the arguments, as OpenAI streams them.
      chunk([{ index: 0, delta: { tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] }, finish_reason: null }]);
      chunk([{ index: 0, delta: { tool_calls: [{ index, function: { arguments: call.function.arguments } }] }, finish_reason: null }]);
    }
    chunk([{ index: 0, delta: {}, finish_reason: finishReason }]);
    if (body.stream_options?.include_usage) chunk([], { usage });
    res.write('data: [DONE]\n\n');
    res.end();
  }

  const http = await startHttp(async (req, body, res) => {
    const url = req.url.split('?')[0];
    if (req.method === 'GET' && url === '/v1/models') {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'mock' }] }));
      return true;
    }
    if (req.method !== 'POST' || url !== '/v1/chat/completions') return false;

    const stream = !!body?.stream;
    const names = toolNames(body);
    if (names.length === 0) {
      state.sideRequests.push(body);
      state.turns.push({ at: Date.now(), kind: 'side', stream });
      answer(res, body, { content: sideText }, 'stop');
      return true;
    }
    if (!state.first) state.first = body;

    // Every tool result so far, recorded under the step whose call it answers.
    const results = (body.messages || []).filter((m) => m?.role === 'tool');
    results.forEach((m, i) => script.record(stepOf(m.tool_call_id) ?? i, contentText(m.content)));

    const step = script.next(results.length);
    if ('final' in step) {
      state.turns.push({ at: Date.now(), kind: 'final', text: step.final, stream });
      answer(res, body, { content: step.final }, 'stop');
      return true;
    }
    let call;
    try {
      call = route(step, names, body);
    } catch (e) {
      // No way to make the call: say so as the final answer, so the run ends and the test's
      // assertions (which print the turns) show why.
      state.turns.push({ at: Date.now(), kind: 'error', text: e.message, stream });
      answer(res, body, { content: `mock model: ${e.message}` }, 'stop');
      return true;
    }
    state.turns.push({ at: Date.now(), kind: 'tool', name: call.name, args: call.args, stream });
    answer(res, body, {
      content: null,
      tool_calls: [{ id: callId(results.length), type: 'function', function: { name: call.name, arguments: JSON.stringify(call.args) } }],
    }, 'tool_calls');
    return true;
  });

  return Object.defineProperties(http, {
    baseURL: { value: `${http.url}/v1` },
    firstToolRequest: { get: () => state.first },
    tools: { get: () => state.first?.tools ?? null },
    toolNames: { get: () => toolNames(state.first) },
    turns: { value: state.turns },
    sideRequests: { value: state.sideRequests },
  });
}

/**
 * The reply mcp-edit itself gives to one tools/call, with no host in between: the server is
 * started with serverArgs(root, flags), initialized (no client capabilities), asked, and ended.
 * Resolves to the JSON-RPC `result` (or rejects with the `error`). Used as the reference for
 * "the whole message reached the model" (an error text is not copied into the test).
 */
export function referenceReply(root, name, args, flags = ['--approval', 'auto'], timeoutMs = 20000) {
  return new Promise((resolve, reject) => {
    const child = spawn(BINARY, serverArgs(root, flags), { stdio: ['pipe', 'pipe', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (d) => { stderr += d; });
    const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`mcp-edit gave no reply in ${timeoutMs} ms; stderr: ${stderr}`)); }, timeoutMs);
    child.on('error', (e) => { clearTimeout(timer); reject(e); });
    readline.createInterface({ input: child.stdout }).on('line', (line) => {
      let msg;
      try { msg = JSON.parse(line); } catch { return; }
      if (msg.id !== 2) return;
      clearTimeout(timer);
      child.stdin.end();
      if (msg.error) reject(new Error(`mcp-edit error reply: ${JSON.stringify(msg.error)}`));
      else resolve(msg.result);
    });
    const send = (m) => child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', ...m })}\n`);
    send({ id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'reference', version: '1' } } });
    send({ method: 'notifications/initialized' });
    send({ id: 2, method: 'tools/call', params: { name, arguments: args } });
  });
}
