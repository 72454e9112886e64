// A mock OpenAI Chat Completions endpoint that plays the model for the hosts that speak that
// protocol (Qwen Code, opencode), plus the run and the checks their tests share.
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
// runChatHost() is runScripted() (harness.mjs) with this mock playing the model: the mock's
// turns go into the failure message, and `seen(step)` gives the plain text the model read for a
// step (modelText() of what was recorded). assertEdited() checks the CRLF edit and that text;
// askWritesAtOnce() and outsideRootWorks() are the two cases both hosts' tests run alike.
import assert from 'node:assert/strict';
import {
  CRLF_EDITED, assertCleanEnd, lines, modelCalls, pickTool, projectFile, runScripted, sendJson, startHttp,
} from './harness.mjs';

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
function modelText(recorded) {
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
      sendJson(res, {
        id, object: 'chat.completion', created, model: body.model ?? model,
        choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: finishReason, logprobs: null }],
        usage,
      });
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
      sendJson(res, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'mock' }] });
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
 * runScripted() (harness.mjs) for a Chat Completions host: the mock started with `route` (see
 * startChatMock), its turns in the failure message. The result also has `seen(step)`: the plain
 * text the model read for that step (every recorded result of it, joined by newlines).
 */
export async function runChatHost({ route, ...options }) {
  const r = await runScripted({
    ...options,
    startMock: (script) => startChatMock(script, { route }),
    notes: (mock) => [`mock turns: ${JSON.stringify(mock.turns.map(({ at, ...t }) => t))}`],
  });
  const seen = (step) => r.script.seen.filter((x) => x.step === step).map((x) => modelText(x.text)).join('\n');
  return { ...r, seen };
}

/**
 * Asserts that a runChatHost() run's CRLF edit landed byte-exactly and that the lines the model
 * read at `step` hold its diff (a hunk header, "-two", "+TWO") and summary line (crlf.txt, "+1 -1").
 */
export function assertEdited(r, step) {
  assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, r.context());
  const edited = lines(r.seen(step));
  assert.ok(edited.some((l) => l.startsWith('@@')) && edited.includes('-two') && edited.includes('+TWO'),
    `the edit's diff did not reach the model\n${r.context()}`);
  assert.ok(edited.some((l) => l.includes('crlf.txt') && l.includes('+1 -1')), `the edit's summary did not reach the model\n${r.context()}`);
}

/**
 * The default --approval ask with a host that declares no elicitation: `run(options)` (the host's
 * runner) makes the CRLF edit, which is written at once, its diff reaches the model, and mcp-edit
 * ends cleanly (assertCleanEnd). Returns
 * the run for the host's own checks.
 */
export async function askWritesAtOnce(t, run, options = {}) {
  const r = await run({ ...options, steps: (p) => modelCalls(p, 'edit') });
  t.diagnostic(`one run: ${r.run.ms} ms; what the model read: ${JSON.stringify(r.seen(0))}`);
  assert.equal(r.run.code, 0, r.context());
  assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, r.context());
  const seen = lines(r.seen(0));
  assert.ok(seen.includes('-two') && seen.includes('+TWO'), `the diff did not reach the model\n${r.context()}`);
  assertCleanEnd(r);
  return r;
}

/**
 * A host run from a cwd outside --root (which it sends as its root), --approval auto: the read and
 * the CRLF edit by absolute path still work. `showsLine2(text)` tells whether the text the model
 * read for the read holds notes.txt's numbered line 2; mcp-edit ends cleanly. Returns the run.
 */
export async function outsideRootWorks(t, run, showsLine2) {
  const r = await run({ outside: true, flags: ['--approval', 'auto'], steps: (p) => modelCalls(p, 'read', 'edit') });
  t.diagnostic(`one run: ${r.run.ms} ms`);
  assert.equal(r.run.code, 0, r.context());
  assert.ok(showsLine2(r.seen(0)), `read failed with the client's root outside --root\n${r.context()}`);
  assert.deepEqual(projectFile(r.s.project, 'crlf.txt'), CRLF_EDITED, r.context());
  assertCleanEnd(r);
  return r;
}
