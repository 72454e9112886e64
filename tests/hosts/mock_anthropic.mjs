// A mock of the Anthropic Messages API that plays the model for Claude Code in the host matrix.
//
// Claude Code is pointed at it with ANTHROPIC_BASE_URL. It answers POST /v1/messages (streaming
// SSE when `stream` is true: message_start, content_block_start/delta/stop for text and for
// tool_use with input_json_delta, message_delta with stop_reason, message_stop; plain JSON
// otherwise) and POST /v1/messages/count_tokens. The conversation is driven by a ModelScript
// (harness.mjs): a "main-conversation" request is one whose `tools` include the MCP server's
// tools (mcp__<server>__*); it gets the script's next step (a tool_use of the named tool, or the
// final answer). Every other request (title generation, quota probes, summaries) is a side
// request and gets a short text. Each tool_result Claude Code sends back is recorded in
// script.seen as exactly the text the model would read, and in `results` with its raw blocks.
import { pickTool, sendJson, startHttp } from './harness.mjs';

/** The text a model reads from one tool_result block: a string as is, text blocks joined. */
export function toolResultText(block) {
  const c = block.content;
  if (c === undefined || c === null) return '';
  if (typeof c === 'string') return c;
  return c.map((p) => (p.type === 'text' ? p.text : `[${p.type} block]`)).join('\n');
}

/** Every tool_result block of a conversation, in order, with the tool_use it answers. */
export function toolResults(messages) {
  const uses = new Map();
  const out = [];
  for (const m of messages || []) {
    if (!Array.isArray(m.content)) continue;
    for (const b of m.content) {
      if (b.type === 'tool_use') uses.set(b.id, b);
      if (b.type === 'tool_result') out.push({ block: b, use: uses.get(b.tool_use_id) });
    }
  }
  return out;
}

/** The content blocks of one assistant turn as SSE events (the Messages API streaming shape). */
function streamMessage(res, model, id, content, stopReason) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const ev = (type, data) => res.write(`event: ${type}\ndata: ${JSON.stringify({ type, ...data })}\n\n`);
  ev('message_start', {
    message: { id, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null,
      usage: { input_tokens: 10, output_tokens: 1 } },
  });
  content.forEach((block, index) => {
    if (block.type === 'text') {
      ev('content_block_start', { index, content_block: { type: 'text', text: '' } });
      ev('content_block_delta', { index, delta: { type: 'text_delta', text: block.text } });
    } else {
      ev('content_block_start', { index, content_block: { type: 'tool_use', id: block.id, name: block.name, input: {} } });
      // The arguments arrive in pieces, as a real model streams them.
      const json = JSON.stringify(block.input);
      const cut = Math.ceil(json.length / 2);
      for (const part of [json.slice(0, cut), json.slice(cut)]) {
        ev('content_block_delta', { index, delta: { type: 'input_json_delta', partial_json: part } });
      }
    }
    ev('content_block_stop', { index });
  });
  ev('message_delta', { delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: 5 } });
  ev('message_stop', {});
  res.end();
}

/**
 * Starts the mock. `script` is a ModelScript whose steps name tools by their MCP name ("read");
 * `server` is the MCP server's name in the host config. Returns the startHttp handle plus
 * `main` (the main-conversation request bodies), `side` (the other request bodies), `results`
 * ({step, tool, input, isError, content} per tool result, raw) and `toolNames()` (the names of
 * the tools the last main request offered the model).
 */
export async function startAnthropicMock(script, { server = 'edit' } = {}) {
  const main = [];
  const side = [];
  const results = [];
  let counter = 0;
  const isMain = (body) => Array.isArray(body?.tools) && body.tools.some((t) => t.name?.startsWith(`mcp__${server}__`));

  const http = await startHttp((req, body, res) => {
    const url = req.url.split('?')[0];
    if (req.method === 'POST' && url === '/v1/messages/count_tokens') {
      sendJson(res, { input_tokens: 100 });
      return true;
    }
    if (req.method !== 'POST' || url !== '/v1/messages') return false;
    const id = `msg_mock_${++counter}`;
    let content;
    let stopReason = 'end_turn';
    if (isMain(body)) {
      main.push(body);
      const done = toolResults(body.messages);
      done.forEach(({ block, use }, step) => {
        script.record(step, toolResultText(block));
        if (!results.some((r) => r.step === step)) {
          results.push({ step, tool: use?.name, input: use?.input, isError: block.is_error === true, content: block.content });
        }
      });
      const next = script.next(done.length);
      if (next.final !== undefined) {
        content = [{ type: 'text', text: next.final }];
      } else {
        const name = pickTool(body.tools.map((t) => t.name), next.tool, server);
        content = [
          { type: 'text', text: `Calling ${next.tool}.` },
          { type: 'tool_use', id: `toolu_mock_${done.length}`, name, input: next.args },
        ];
        stopReason = 'tool_use';
      }
    } else {
      side.push(body);
      content = [{ type: 'text', text: 'Mock side answer' }];
    }
    if (body?.stream) {
      streamMessage(res, body.model, id, content, stopReason);
    } else {
      sendJson(res, { id, type: 'message', role: 'assistant', model: body?.model, content,
        stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: 10, output_tokens: 5 } });
    }
    return true;
  });

  return {
    ...http,
    main,
    side,
    results,
    toolNames: () => (main.length ? main[main.length - 1].tools.map((t) => t.name) : []),
  };
}

