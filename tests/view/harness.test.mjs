// The harness itself, with views of its own in place of the server's (Host option viewHtml): a
// correct hand-written view passes every check; a view that breaks the MCP Apps rules in several
// ways is caught each time (so a green review.test.mjs means something).
import assert from 'node:assert/strict';
import { after, test } from 'node:test';
import { ERAS, Host, closeBrowser, show, textOf, withHost } from './harness.mjs';

after(closeBrowser);

const view = (script) => `<!doctype html><html><body><p id="out">waiting</p><button id="go">Go</button>
<script>
var nextId = 1, pending = {};
function post(m) { parent.postMessage(m, '*'); }
function request(method, params) {
  var id = nextId++;
  return new Promise(function (resolve) { pending[id] = resolve; post({ jsonrpc: '2.0', id: id, method: method, params: params }); });
}
function notify(method, params) { post({ jsonrpc: '2.0', method: method, params: params }); }
var out = document.getElementById('out');
addEventListener('message', function (ev) {
  var m = ev.data;
  if (ev.source !== parent || !m || m.jsonrpc !== '2.0') return;
  if (m.method === 'ui/notifications/tool-input') out.textContent = 'input ' + m.params.arguments.file_path;
  else if (m.method === 'ui/notifications/tool-result') out.textContent = 'result: ' + (m.params.content[0] || {}).text;
  else if (m.method === 'ui/notifications/host-context-changed') out.textContent = 'theme ' + m.params.theme;
  else if (m.method === 'ui/resource-teardown') post({ jsonrpc: '2.0', id: m.id, result: {} });
  else if (!m.method && pending[m.id]) { pending[m.id](m); delete pending[m.id]; }
});
request('ui/initialize', { appInfo: { name: 'test view', version: '0' }, appCapabilities: {}, protocolVersion: '2026-01-26' })
  .then(function () { notify('ui/notifications/initialized', {}); notify('ui/notifications/size-changed', { height: 80 }); });
${script}
</script></body></html>`;

const GOOD = view(`
document.getElementById('go').onclick = function () {
  request('tools/call', { name: 'read', arguments: { file_path: document.body.dataset.file } }).then(function (r) {
    out.textContent = 'read: ' + r.result.content[0].text;
    return request('ui/update-model-context', { content: [{ type: 'text', text: 'context from the test view' }] });
  }).then(function () {
    return request('ui/message', { role: 'user', content: [{ type: 'text', text: 'hello from the test view' }] });
  });
};`);

const BAD = view(`
document.getElementById('go').onclick = function () {
  request('ui/message', { role: 'assistant', content: [{ type: 'text', text: 'wrong role' }] });
  notify('ui/notifications/tool-result', { content: [] });
  request('ui/bogus', {});
  post({ jsonrpc: '2.0', id: 999, result: {} });
  post({ hello: 'not JSON-RPC' });
  notify('ui/notifications/size-changed', { height: 'tall' });
  fetch('http://127.0.0.1:59999/tracking.gif').catch(function () {});
};`);

for (const era of ERAS) {
  test(`${era}: a correct test view passes every check; tools/call, update-model-context and message go through`, { timeout: 60000 }, async () => {
    await withHost({ era, flags: ['--approval', 'auto'], files: { 'a.txt': 'one\ntwo\n' }, viewHtml: GOOD }, async (h) => {
      const call = await h.callTool('edit', { file_path: h.path('a.txt'), old_string: 'two', new_string: 'TWO' });
      await h.waitForText(call.view, ['result: ']);
      await call.view.frame.locator('body').evaluate((b, f) => { b.dataset.file = f; }, h.path('a.txt'));
      await call.view.frame.locator('#go').click();
      await h.waitForModel((m) => m.method === 'ui/message' && m.text === 'hello from the test view');
      assert.ok(h.model.some((m) => m.method === 'ui/update-model-context' && m.text === 'context from the test view'));
      await h.waitForText(call.view, ['read: ', 'TWO']);
      await h.setTheme('dark');
      await h.waitForText(call.view, ['theme dark']);
      const teardown = await h.page.evaluate((id) => window.host.teardown(id), call.view.id);
      assert.deepEqual(teardown, {});
      const methods = h.ui.map((e) => `${e.dir} ${e.msg.method ?? 'response'}`);
      for (const m of ['view→host ui/initialize', 'view→host ui/notifications/initialized', 'host→view ui/notifications/tool-input',
        'host→view ui/notifications/tool-result', 'view→host tools/call', 'view→host ui/update-model-context', 'view→host ui/message',
        'host→view ui/notifications/host-context-changed', 'host→view ui/resource-teardown']) {
        assert.ok(methods.includes(m), `recorded ${m}; recorded: ${show(methods)}`);
      }
    });
  });
}

test('a view breaking the rules: each break is reported', { timeout: 60000 }, async () => {
  const h = await Host.start({ flags: ['--approval', 'auto'], files: { 'a.txt': 'one\ntwo\n' }, viewHtml: BAD });
  try {
    const call = await h.callTool('edit', { file_path: h.path('a.txt'), old_string: 'two', new_string: 'TWO' });
    assert.notEqual(call.result.isError, true, textOf(call.result));
    await h.waitForText(call.view, ['result: ']);
    await call.view.frame.locator('#go').click();
    const expected = [
      /ui\/message does not match McpUiMessageRequest: \/params\/role must be equal to constant/,
      /ui\/message was answered with an error/,
      /ui\/notifications\/tool-result travels host→view only/,
      /method "ui\/bogus", which is neither an MCP Apps method/,
      /answers id 999, which no host→view request used/,
      /posted a message that is not JSON-RPC 2\.0/,
      /ui\/notifications\/size-changed does not match McpUiSizeChangedNotification/,
    ];
    await h.waitFor(() => expected.every((re) => h.problems.some((p) => re.test(p))),
      `every break reported; problems: ${show(h.problems)}`);
    await h.waitFor(() => h.foreignRequests().some((r) => r.url === 'http://127.0.0.1:59999/tracking.gif' && !r.isMain),
      `the view's fetch recorded; requests: ${show(h.requests)}`);
  } finally {
    await h.close();
  }
  assert.deepEqual(h.exit, { code: 0, signal: null });
});
