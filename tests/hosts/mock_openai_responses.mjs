// A mock of the OpenAI Responses API (POST /v1/responses, streamed as server-sent events) for
// hosts that speak it, Codex CLI first. It plays the model from a ModelScript: while the script
// has steps left it answers with one `function_call` to the host's tool for that step, then with
// a final assistant message. What the host sends back for each tool call (a `function_call_output`
// item in the next request's `input`) is recorded in the script's `seen` exactly as the model
// would read it: the `output` string as is, or, when a host sends structured output (a list of
// content items), its JSON text. Every request is kept, so a test can also look at the `tools`
// the host offered its model and at any side requests.
import { pickTool, sendJson, startHttp } from './harness.mjs';

/** Server-sent event text for one Responses API event object. */
function sse(event) {
  return `event: ${event.type}\ndata: ${JSON.stringify(event)}\n\n`;
}

/** The text of a function_call_output's `output`: a string as is, anything else as JSON. */
export function outputText(output) {
  return typeof output === 'string' ? output : JSON.stringify(output);
}

/**
 * The function tools a Responses request offers the model, as {qualified, namespace, name, def}.
 * Codex groups MCP tools in a `namespace` entry (`mcp__edit` holding `read`, `edit`, ...); such a
 * tool's qualified name is `namespace__name` (`mcp__edit__read`), a plain function's is its name.
 */
export function offeredTools(body) {
  const out = [];
  for (const t of body?.tools || []) {
    if (t.type === 'function' && t.name) out.push({ qualified: t.name, name: t.name, def: t });
    if (t.type === 'namespace') {
      for (const inner of t.tools || []) {
        out.push({ qualified: `${t.name}__${inner.name}`, namespace: t.name, name: inner.name, def: inner });
      }
    }
  }
  return out;
}

/** The qualified names of the function tools a Responses request offers (see offeredTools). */
export function toolNames(body) {
  return offeredTools(body).map((t) => t.qualified);
}

/** The offered tool whose qualified name is `qualified`, or undefined. */
export function toolDef(body, qualified) {
  return offeredTools(body).find((t) => t.qualified === qualified);
}

/**
 * Starts the mock on 127.0.0.1. Returns startHttp's handle (url, requests, close) plus
 * `modelRequests` (the POST /v1/responses bodies, in order). `baseUrl` for a provider config is
 * `${url}/v1`.
 */
export async function startResponsesMock(script) {
  let counter = 0;
  const modelRequests = [];
  const srv = await startHttp(async (req, body, res) => {
    const url = req.url.split('?')[0];
    if (req.method === 'GET' && url.endsWith('/models')) {
      // Hosts may refresh a model list; an empty one keeps them on the configured model.
      sendJson(res, { object: 'list', data: [], models: [] });
      return true;
    }
    if (req.method !== 'POST' || !url.endsWith('/responses')) return false;
    modelRequests.push(body);

    const input = Array.isArray(body?.input) ? body.input : [];
    const calls = new Map(); // call_id -> step index, from the function_call items echoed back
    for (const item of input) if (item.type === 'function_call') calls.set(item.call_id, calls.size);
    const outputs = input.filter((i) => i.type === 'function_call_output');
    for (const o of outputs) {
      const step = calls.has(o.call_id) ? calls.get(o.call_id) : outputs.indexOf(o);
      script.record(step, outputText(o.output));
    }

    const n = ++counter;
    const respId = `resp_mock_${n}`;
    const next = script.next(outputs.length);
    const events = [{ type: 'response.created', response: { id: respId, object: 'response', status: 'in_progress', output: [] } }];
    let item;
    if (next.final === undefined) {
      // A call to a namespaced tool names the namespace and the bare tool, as the Responses API does.
      const tool = toolDef(body, pickTool(toolNames(body), next.tool));
      item = {
        type: 'function_call', id: `fc_mock_${n}`, call_id: `call_mock_${n}`, status: 'completed',
        ...(tool.namespace ? { namespace: tool.namespace } : {}), name: tool.name, arguments: JSON.stringify(next.args),
      };
      events.push({ type: 'response.output_item.added', output_index: 0, item: { ...item, arguments: '', status: 'in_progress' } });
      events.push({ type: 'response.function_call_arguments.delta', output_index: 0, item_id: item.id, delta: item.arguments });
      events.push({ type: 'response.function_call_arguments.done', output_index: 0, item_id: item.id, arguments: item.arguments });
    } else {
      item = {
        type: 'message', id: `msg_mock_${n}`, role: 'assistant', status: 'completed',
        content: [{ type: 'output_text', text: next.final, annotations: [] }],
      };
      events.push({ type: 'response.output_item.added', output_index: 0, item: { ...item, content: [], status: 'in_progress' } });
      events.push({ type: 'response.content_part.added', output_index: 0, item_id: item.id, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
      events.push({ type: 'response.output_text.delta', output_index: 0, item_id: item.id, content_index: 0, delta: next.final });
      events.push({ type: 'response.output_text.done', output_index: 0, item_id: item.id, content_index: 0, text: next.final });
      events.push({ type: 'response.content_part.done', output_index: 0, item_id: item.id, content_index: 0, part: item.content[0] });
    }
    events.push({ type: 'response.output_item.done', output_index: 0, item });
    events.push({
      type: 'response.completed',
      response: {
        id: respId, object: 'response', status: 'completed', output: [item],
        usage: {
          input_tokens: 100, input_tokens_details: { cached_tokens: 0 },
          output_tokens: 10, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 110,
        },
      },
    });

    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
    res.end(events.map(sse).join(''));
    return true;
  });
  return { ...srv, modelRequests, baseUrl: `${srv.url}/v1` };
}
