// A mock of the Gemini API (generativelanguage v1beta) for driving the real Gemini CLI against
// mcp-edit offline. Gemini CLI reaches it through GOOGLE_GEMINI_BASE_URL with API-key auth.
//
// Routes:
//   POST /v1beta/models/{model}:streamGenerateContent?alt=sse  SSE of GenerateContentResponse chunks
//   POST /v1beta/models/{model}:generateContent                one GenerateContentResponse
//   POST /v1beta/models/{model}:countTokens                    {totalTokens} (if ever called)
//
// The conversation ("main") requests are the ones that declare the edit server's tools; they are
// answered by the ModelScript: a `functionCall` part {name, args} per step (the tool name as Gemini
// CLI spelled it for the model, e.g. "mcp_edit_read"), then a final text. Every `functionResponse`
// part Gemini CLI sends back is recorded in script.seen as the model would read it: its `response`
// object JSON-stringified (plus the text of any nested `parts`).
//
// Every other request is a side request Gemini CLI makes for itself (model routing classifier,
// next-speaker check, loop detection, summaries, ...). Those that ask for JSON
// (generationConfig.responseJsonSchema / responseSchema / responseMimeType application/json) get
// a small instance of the schema (enums: a harmless choice such as "user" for next_speaker);
// the rest get a short plain text. They never advance the script.
import { pickTool, sendJson, startHttp } from './harness.mjs';

const MODEL_VERSION = 'mock-gemini';

/** The names of the function declarations in a GenerateContent request body. */
export function declaredTools(body) {
  const names = [];
  for (const t of body?.tools || []) {
    for (const fd of t.functionDeclarations || t.function_declarations || []) names.push(fd.name);
  }
  return names;
}

/** The function declarations themselves (name -> declaration) of a request body. */
export function declarations(body) {
  const out = {};
  for (const t of body?.tools || []) {
    for (const fd of t.functionDeclarations || t.function_declarations || []) out[fd.name] = fd;
  }
  return out;
}

/** Every functionResponse part of the conversation, in order. */
export function functionResponses(body) {
  const out = [];
  for (const c of body?.contents || []) {
    for (const p of c.parts || []) if (p.functionResponse) out.push(p.functionResponse);
  }
  return out;
}

/** What the model reads of one functionResponse: its `response` as JSON, plus text of nested parts. */
export function responseText(fr) {
  let text = JSON.stringify(fr.response);
  for (const p of fr.parts || []) {
    if (typeof p.text === 'string') text += `\n${p.text}`;
    else text += `\n${JSON.stringify(p)}`;
  }
  return text;
}

/** A small value that satisfies a (Gemini or JSON) schema; the side requests' answers. */
export function instanceOf(schema) {
  if (!schema || typeof schema !== 'object') return null;
  const type = String(schema.type || (schema.properties ? 'object' : 'string')).toLowerCase();
  if (Array.isArray(schema.enum) && schema.enum.length) {
    // Choices that keep a headless run going quietly: the user speaks next, no loop, etc.
    const prefer = ['user', 'false', 'no'];
    return schema.enum.find((v) => prefer.includes(String(v).toLowerCase())) ?? schema.enum[0];
  }
  if (schema.anyOf?.length) return instanceOf(schema.anyOf[0]);
  if (schema.oneOf?.length) return instanceOf(schema.oneOf[0]);
  switch (type) {
    case 'object': {
      const o = {};
      for (const [k, v] of Object.entries(schema.properties || {})) o[k] = instanceOf(v);
      return o;
    }
    case 'array': return [];
    case 'boolean': return false;
    case 'integer':
    case 'number': return schema.minimum ?? 1; // e.g. the router's complexity_score (1-100)
    default: return 'mock';
  }
}

function usage() {
  return { promptTokenCount: 10, candidatesTokenCount: 5, totalTokenCount: 15 };
}

function chunk(parts, finishReason = 'STOP') {
  return {
    candidates: [{ content: { role: 'model', parts }, finishReason, index: 0 }],
    usageMetadata: usage(),
    modelVersion: MODEL_VERSION,
    responseId: `mock-${Math.random().toString(36).slice(2)}`,
  };
}

/**
 * Starts the mock. `script` is a ModelScript whose steps name tools by their MCP name ("read");
 * the step's args are sent as the functionCall's args (add `wait_for_previous` there to play a
 * model that fills in the argument Gemini CLI declares on every tool).
 * Returns startHttp()'s handle plus: `main` (the conversation requests' bodies), `side` (side
 * requests: {url, body}), `toolNames()` (what the first conversation request declared), `calls`
 * (the functionCalls sent: {step, name, args}).
 */
export async function startGeminiMock(script, { server = 'edit' } = {}) {
  const main = [];
  const side = [];
  const calls = [];

  // Gemini CLI names an MCP tool mcp_<server>_<tool> for its model.
  function isMain(body) {
    return declaredTools(body).some((n) => n.startsWith(`mcp_${server}_`));
  }

  /** The answer to a conversation request: the parts of the model's next turn. */
  function mainTurn(body) {
    main.push(body);
    const responses = functionResponses(body);
    responses.forEach((fr, i) => script.record(i, responseText(fr)));
    const step = script.next(responses.length);
    if (step.final !== undefined) return [{ text: step.final }];
    const name = pickTool(declaredTools(body), step.tool, server);
    calls.push({ step: responses.length, name, args: step.args });
    return [{ functionCall: { name, args: step.args } }];
  }

  function sideTurn(url, body) {
    side.push({ url, body });
    const gc = body?.generationConfig || {};
    const schema = gc.responseJsonSchema || gc.responseSchema || gc.response_json_schema;
    if (schema) return [{ text: JSON.stringify(instanceOf(schema)) }];
    if (/json/i.test(gc.responseMimeType || '')) return [{ text: '{}' }];
    return [{ text: 'OK.' }];
  }

  const http = await startHttp(async (req, body, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    const m = url.pathname.match(/\/models\/([^/:]+):(\w+)$/);
    if (req.method !== 'POST' || !m) return false;
    const method = m[2];
    if (method === 'countTokens') {
      sendJson(res, { totalTokens: 10 });
      return true;
    }
    if (method !== 'streamGenerateContent' && method !== 'generateContent') return false;
    const parts = isMain(body) ? mainTurn(body) : sideTurn(req.url, body);
    if (method === 'generateContent') {
      sendJson(res, chunk(parts));
      return true;
    }
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
    res.end(`data: ${JSON.stringify(chunk(parts))}\r\n\r\n`);
    return true;
  });

  return {
    ...http,
    main,
    side,
    calls,
    toolNames: () => declaredTools(main[0]),
  };
}
