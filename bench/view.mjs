#!/usr/bin/env node
// The review view's numbers (issue 37): the page's size, and the time from the host's tool-result
// to the diff drawn in headless Chromium for a 1,000-line and a 10,000-line diff, through the same
// host as tests/view (the official AppBridge, the real binary). Also what the model is handed for
// a change (content and structuredContent, the view's payload in _meta left out) under a host with
// MCP Apps and under one without: the view must add nothing the model reads but the sentence that
// the change awaits review. Not a test: `scripts/bench --only=view` runs it; prints markdown and
// writes bench/view-results.json.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BINARY, Host, closeBrowser, payloadOf } from '../tests/view/harness.mjs';

const here = path.dirname(fileURLToPath(import.meta.url));
const RUNS = 5;
const median = (xs) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const results = {};

// A file of n/2 lines, every one of them changed by `write`: a diff of n changed lines, each pair
// with an intra-line highlight.
const before = (half) => Array.from({ length: half }, (_, i) => `line ${i} of the file, value = ${i * 7};\n`).join('');
const after = (half) => Array.from({ length: half }, (_, i) => `line ${i} of the file, value = ${i * 7 + 1};\n`).join('');

async function renderTime(lines) {
  const samples = [], endToEnd = [];
  for (let run = 0; run < RUNS; run++) {
    const h = await Host.start({ files: { 'big.txt': before(lines / 2) }, label: `bench ${lines}` });
    try {
      await h.callTool('read', { file_path: 'big.txt', limit: 1 }, { render: false });
      const sentAt = Date.now();
      const { view } = await h.callTool('write', { file_path: 'big.txt', content: after(lines / 2) });
      // The view reports, after layout, how long its render took since the tool-result arrived.
      const frame = await view.iframe.elementHandle().then((e) => e.contentFrame());
      await frame.waitForFunction(() => window.__mcpEditReview && window.__mcpEditReview.rendered > 0, null, { timeout: 20000 });
      const state = await frame.evaluate(() => window.__mcpEditReview);
      samples.push(state.lastRenderMs);
      endToEnd.push(Date.now() - sentAt);
      results[`drawn_lines_${lines}`] = state.rendered;
    } finally {
      await h.close();
    }
  }
  return { render_ms: median(samples), samples, call_to_drawn_ms: median(endToEnd) };
}

// The page as resources/read serves it, in bytes.
function viewHtmlBytes() {
  const lines = [
    { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench', version: '1' } } },
    { jsonrpc: '2.0', method: 'notifications/initialized' },
    { jsonrpc: '2.0', id: 1, method: 'resources/read', params: { uri: 'ui://mcp-edit/review.html' } },
  ].map((m) => JSON.stringify(m)).join('\n') + '\n';
  const out = spawnSync(BINARY, ['--root', here], { input: lines, encoding: 'utf8' }).stdout;
  const reply = out.split('\n').filter(Boolean).map((l) => JSON.parse(l)).find((m) => m.id === 1);
  return Buffer.byteLength(reply.result.contents[0].text);
}

async function main() {
  results.view_html_bytes = viewHtmlBytes();
  for (const lines of [1000, 10000]) results[`diff_${lines}`] = await renderTime(lines);

  // What the model reads of a change, with and without MCP Apps (same edit, same file).
  const modelText = (r) => JSON.stringify({ content: r.content, structuredContent: r.structuredContent });
  const measure = async (era, flags) => {
    const host = await Host.start({ era, flags, files: { 'a.txt': 'one\ntwo\nthree\n' } });
    try {
      const { result } = await host.callTool('edit', { file_path: 'a.txt', old_string: 'two', new_string: 'TWO' }, { render: false });
      return { model_bytes: Buffer.byteLength(modelText(result)), meta_bytes: Buffer.byteLength(JSON.stringify(payloadOf(result) ?? null)) };
    } finally {
      await host.close();
    }
  };
  results.change_result_with_view = await measure('legacy', ['--approval', 'ask']);
  results.change_result_written = await measure('legacy', ['--approval', 'auto']);
  await closeBrowser();

  const out = path.join(here, 'view-results.json');
  fs.writeFileSync(out, JSON.stringify(results, null, 2) + '\n');
  const kb = (b) => `${(b / 1024).toFixed(1)} KB`;
  console.log('| row | goal | measured |\n|---|---|---|');
  console.log(`| the view's HTML | ≤ 150 KB | ${kb(results.view_html_bytes)} |`);
  for (const lines of [1000, 10000]) {
    const r = results[`diff_${lines}`];
    console.log(`| ${lines.toLocaleString('en')}-line diff: tool-result to drawn (median of ${RUNS}) | ≤ ${lines === 1000 ? 100 : 500} ms | ${r.render_ms.toFixed(1)} ms (${results[`drawn_lines_${lines}`]} lines drawn; the model's call to drawn: ${r.call_to_drawn_ms} ms) |`);
  }
  console.log(`| a change's result, what the model reads (awaiting review / written by policy) | unchanged but for the sentence | ${results.change_result_with_view.model_bytes} / ${results.change_result_written.model_bytes} bytes; the view's payload (${results.change_result_with_view.meta_bytes} bytes) only in _meta |`);
}

main().catch(async (e) => {
  console.error(e);
  await closeBrowser().catch(() => {});
  process.exit(1);
});
