// The review view (MCP Apps) in a browser, hosted the way Claude Desktop hosts it: the official
// AppBridge in headless Chromium, the real mcp-edit binary behind it (harness.mjs). Each case runs
// in both eras where it makes sense: Claude Desktop's initialize (2025-11-25) and the stateless
// 2026-07-28 (server/discover, _meta on every request), with the same MCP Apps extension declared.
// Every message between a view and the host is checked against ext-apps' schema.json, and every
// host must end with the server exiting 0, no error lines on its stderr, and no request made by a
// view (Host.finish()).
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { after, describe, test } from 'node:test';
import {
  CLAUDE_DESKTOP_INITIALIZE, ERAS, MCP_APP_MIME, VIEW_URI, assertBytes, closeBrowser, payloadOf, show, textOf, withHost,
} from './harness.mjs';

after(closeBrowser);

// A file with CRLF line endings and no final newline, and the one edit the cases make.
const ORIGINAL = Buffer.from('alpha\r\nthe old line\r\ngamma');
const EDITED = Buffer.from('alpha\r\nthe new line\r\ngamma');
const EDIT = (file) => ({ file_path: file, old_string: 'the old line', new_string: 'the new line' });
const MINUS = '\u2212';

/** The view's button with exactly this accessible name (or matching this RegExp). */
const button = (view, name) => view.frame.getByRole('button', { name, exact: typeof name === 'string' });

/** Waits until the file holds exactly `expected`. */
async function waitForBytes(h, file, expected, what) {
  await h.waitFor(() => fs.readFileSync(file).equals(expected), `${what}: ${file} to hold ${show(expected.toString())} (holds ${show(fs.readFileSync(file).toString())})`);
}

/** The tools/call requests a view sent for tool `name`, in order. */
const viewCalls = (h, name, view) => h.uiMessages({ method: 'tools/call', dir: 'view→host', view })
  .filter((e) => e.msg.params?.name === name);

/** Waits for the answer to the n-th (0-based) `name` call the view made; returns {request, result}. */
async function viewCallAnswer(h, view, name, n = 0) {
  const answer = await h.waitFor(() => {
    const req = viewCalls(h, name, view.id)[n];
    const res = req && h.responseTo(req);
    return res && { request: req.msg, result: res.msg.result, error: res.msg.error };
  }, `view ${view.id}'s ${name} call #${n + 1} and its answer`);
  assert.equal(answer.error, undefined, `view ${view.id}'s ${name} call failed: ${show(answer.error)}`);
  return answer;
}

/** A change the model made that now awaits review: its result says so and nothing is written. */
function assertPending(call, file, before, what) {
  const { result } = call;
  assert.ok(result, `${what}: no result (${show(call.error)})`);
  assert.notEqual(result.isError, true, `${what}: isError: ${textOf(result)}`);
  assert.equal(result.structuredContent?.approval, 'pending', `${what}: structuredContent.approval`);
  assert.match(textOf(result), /not written/i, `${what}: the text must say nothing is written yet`);
  assert.match(textOf(result), /review/i, `${what}: the text must say the change awaits review`);
  const p = payloadOf(result);
  assert.ok(p, `${what}: result._meta["mcp-edit/review"] missing`);
  assert.equal(p.state, 'pending', `${what}: payload state`);
  assert.match(p.review, /^r\d+$/, `${what}: payload review id`);
  assert.match(p.token, /^[0-9a-f]{64}$/, `${what}: payload token`);
  const modelVisible = show({ content: result.content, structuredContent: result.structuredContent });
  assert.ok(!modelVisible.includes(p.token), `${what}: the token must not be in what the model sees`);
  assert.ok(call.view, `${what}: no view was rendered for the call`);
  assertBytes(file, before, `${what}: the file must be unchanged while the change awaits review`);
  return p;
}

/** The view shows these texts, in this order. */
async function assertShownInOrder(h, view, texts, what) {
  const shown = await h.waitForText(view, texts);
  let at = -1;
  for (const t of texts) {
    const i = shown.indexOf(t, at + 1);
    assert.ok(i > at, `${what}: ${show(t)} must come after the previous text in the view; view text: ${show(shown)}`);
    at = i;
  }
  return shown;
}

for (const era of ERAS) {
  describe(`${era} era`, () => {
    test('1. edit of a CRLF file with no final newline: pending, shown, applied through the view', { timeout: 60000 }, async () => {
      await withHost({ era, files: { 'crlf.txt': ORIGINAL } }, async (h) => {
        const file = h.path('crlf.txt');
        // The host spoke as Claude Desktop does: its initialize exactly, or (2026-07-28)
        // server/discover first and the same capabilities in every request's _meta.
        const sent = h.transcript.filter((e) => e.dir === 'c2s').map((e) => JSON.parse(e.line));
        if (era === 'legacy') {
          assert.deepEqual(sent[0], { jsonrpc: '2.0', id: 0, method: 'initialize', params: CLAUDE_DESKTOP_INITIALIZE });
          assert.equal(sent[1].method, 'notifications/initialized');
        } else {
          assert.equal(sent[0].method, 'server/discover');
          for (const m of sent) {
            assert.equal(m.params._meta['io.modelcontextprotocol/protocolVersion'], '2026-07-28');
            assert.deepEqual(m.params._meta['io.modelcontextprotocol/clientCapabilities'], CLAUDE_DESKTOP_INITIALIZE.capabilities);
          }
        }
        const edit = h.tool('edit');
        assert.equal(edit?._meta?.ui?.resourceUri, VIEW_URI, `edit must name the view in _meta.ui.resourceUri: ${show(edit?._meta)}`);
        const call = await h.callTool('edit', EDIT(file));
        const p = assertPending(call, file, ORIGINAL, 'edit');
        assert.equal(h.resource?.mimeType, MCP_APP_MIME, 'the view resource mimeType');

        // tool-input (the call's arguments) then tool-result (the CallToolResult), once each.
        const input = h.uiMessages({ method: 'ui/notifications/tool-input', view: call.view.id });
        const output = h.uiMessages({ method: 'ui/notifications/tool-result', view: call.view.id });
        assert.equal(input.length, 1, 'one tool-input');
        assert.equal(output.length, 1, 'one tool-result');
        assert.deepEqual(input[0].msg.params.arguments, EDIT(file));
        assert.ok(input[0].t <= output[0].t && h.ui.indexOf(input[0]) < h.ui.indexOf(output[0]), 'tool-input before tool-result');

        const view = call.view;
        await assertShownInOrder(h, view, ['crlf.txt', 'the old line', 'the new line'], 'the diff');
        await h.waitForText(view, ['+1', `${MINUS}1`]);

        await button(view, 'Apply').click();
        await waitForBytes(h, file, EDITED, 'after Apply');
        const { request, result } = await viewCallAnswer(h, view, 'review');
        assert.deepEqual(request.params.arguments, { review: p.review, token: p.token, decision: 'apply' },
          'the view decides with the payload\'s review id and token');
        assert.equal(result.structuredContent?.outcome, 'applied', `review result: ${textOf(result)}`);
        assert.equal(payloadOf(result)?.state, 'applied');
        await h.waitForText(view, ['Written']);
        const told = await h.waitForModel((m) => m.text.includes('crlf.txt'), 'the model told of the applied change');
        assert.match(told.text, /appl/i, `what the model is told: ${show(told.text)}`);
        assertBytes(file, EDITED, 'in the end');
      });
    });

    test('2. reject with feedback: nothing written, the feedback reaches the model', { timeout: 60000 }, async () => {
      const feedback = 'Keep the old line, rename the function instead';
      await withHost({ era, files: { 'crlf.txt': ORIGINAL } }, async (h) => {
        const file = h.path('crlf.txt');
        const call = await h.callTool('edit', EDIT(file));
        const p = assertPending(call, file, ORIGINAL, 'edit');
        const view = call.view;
        await h.waitForText(view, ['the new line']);
        await view.frame.getByRole('textbox').fill(feedback);
        await button(view, 'Reject').click();

        const { request, result } = await viewCallAnswer(h, view, 'review');
        assert.equal(request.params.arguments.decision, 'reject');
        assert.equal(request.params.arguments.review, p.review);
        assert.equal(request.params.arguments.feedback, feedback);
        assert.equal(result.structuredContent?.outcome, 'rejected', `review result: ${textOf(result)}`);
        const msg = await h.waitForModel((m) => m.method === 'ui/message' && m.text.includes(feedback), 'a ui/message with the feedback');
        assert.equal(msg.params.role, 'user');
        assertBytes(file, ORIGINAL, 'after Reject');

        // The model's next tool result tells it too.
        const read = await h.callTool('read', { file_path: file });
        assert.notEqual(read.result?.isError, true, textOf(read.result));
        assert.match(textOf(read.result), /reject/i, 'the next tool result mentions the rejection');
        assert.ok(textOf(read.result).includes(feedback), 'the next tool result carries the feedback');
        assertBytes(file, ORIGINAL, 'in the end');
      });
    });

    test('3. the file changes on disk before Apply: shown again, then the merged bytes are written', { timeout: 60000 }, async () => {
      await withHost({ era, files: { 'crlf.txt': ORIGINAL } }, async (h) => {
        const file = h.path('crlf.txt');
        const call = await h.callTool('edit', EDIT(file));
        const p = assertPending(call, file, ORIGINAL, 'edit');
        const view = call.view;
        await h.waitForText(view, ['the new line']);

        const changed = Buffer.from('zero\r\nalpha\r\nthe old line\r\ngamma');
        fs.writeFileSync(file, changed);
        await button(view, 'Apply').click();
        const first = await viewCallAnswer(h, view, 'review', 0);
        assert.equal(first.result.structuredContent?.outcome, 'shown_again', `first Apply: ${textOf(first.result)}`);
        const again = payloadOf(first.result);
        assert.equal(again?.state, 'pending', 'shown again: pending');
        assert.ok(again.asked_again, 'shown again: asked_again says why');
        assert.notEqual(again.token, p.token, 'shown again: a new token');
        await h.waitFor(async () => (await view.frame.locator('body').innerText()).includes(again.asked_again),
          'the view to show why the change is shown again');
        assertBytes(file, changed, 'after the first Apply nothing is written');

        await button(view, 'Apply').click();
        const merged = Buffer.from('zero\r\nalpha\r\nthe new line\r\ngamma');
        await waitForBytes(h, file, merged, 'after the second Apply');
        const second = await viewCallAnswer(h, view, 'review', 1);
        assert.deepEqual(second.request.params.arguments, { review: again.review, token: again.token, decision: 'apply' });
        assert.equal(second.result.structuredContent?.outcome, 'applied', `second Apply: ${textOf(second.result)}`);
        await h.waitForText(view, ['Written']);
      });
    });

    test('4. the decision tool called as the model could: every attempt is an error, nothing written', { timeout: 60000 }, async () => {
      const files = { 'a.txt': ORIGINAL, 'b.txt': ORIGINAL, 'c.txt': ORIGINAL };
      await withHost({ era, files }, async (h) => {
        const [a, b, c] = ['a.txt', 'b.txt', 'c.txt'].map((n) => h.path(n));
        const ca = await h.callTool('edit', EDIT(a));
        const pa = assertPending(ca, a, ORIGINAL, 'edit a');
        const cb = await h.callTool('edit', EDIT(b));
        const pb = assertPending(cb, b, ORIGINAL, 'edit b');
        const readA = await h.callTool('read', { file_path: a });
        const reviewId = textOf(ca.result).match(/\((r\d+)\)/)?.[1];
        assert.equal(reviewId, pa.review, 'the model-visible text names the review id');

        const unchanged = (what) => {
          assertBytes(a, ORIGINAL, `${what}: a.txt`);
          assertBytes(b, ORIGINAL, `${what}: b.txt`);
        };
        const mustFail = async (args, what, { saysNothingWritten = true } = {}) => {
          const r = await h.callTool('review', args);
          assert.equal(r.error, undefined, `${what}: expected an error result, got JSON-RPC error ${show(r.error)}`);
          assert.equal(r.result?.isError, true, `${what}: expected isError: true, got ${show(r.result)}`);
          if (saysNothingWritten) {
            assert.match(textOf(r.result), /nothing (was )?written|not written/i, `${what}: the error says nothing was written: ${textOf(r.result)}`);
          }
          unchanged(what);
          return r;
        };

        // (a) no token
        // (a) no token: refused by the input schema (token is required), with the schema's message
        await mustFail({ review: reviewId, decision: 'apply' }, '(a) no token', { saysNothingWritten: false });
        // (b) tokens made of what the model sees: every hex run, the ids, the whole summary
        const seen = [ca, cb, readA].map((x) => show({ content: x.result.content, structuredContent: x.result.structuredContent })).join('\n');
        const candidates = new Set([...seen.matchAll(/[0-9a-fA-F]{16,}/g)].map((m) => m[0]));
        // (tokens are at most 128 characters by the input schema: longer ones never reach the check)
        const summary = ca.result.structuredContent?.summary ?? '';
        for (const s of [reviewId, pb.review, '', summary.slice(0, 64), summary.slice(0, 128)]) candidates.add(s);
        assert.ok([...candidates].some((x) => /^[0-9a-f]{64}$/.test(x)), 'a 64-hex string the model can see (read\'s sha256) is among the candidates');
        const hex64 = (x) => /^[0-9a-f]{64}$/i.test(x);
        for (const token of [...candidates].sort((x, y) => hex64(y) - hex64(x)).slice(0, 12)) {
          await mustFail({ review: reviewId, token, decision: 'apply' }, `(b) token ${show(token.slice(0, 70))}`);
        }
        // (d) another change's token with this change's id
        await mustFail({ review: pa.review, token: pb.token, decision: 'apply' }, '(d) b\'s token on a\'s review');
        await mustFail({ review: pa.review, token: pb.token, decision: 'reject' }, '(d) b\'s token on a\'s review, reject');

        // (c) a used token: apply c through its view, put c back, replay the view's exact arguments
        const cc = await h.callTool('edit', EDIT(c));
        assertPending(cc, c, ORIGINAL, 'edit c');
        await h.waitForText(cc.view, ['the new line']);
        await button(cc.view, 'Apply').click();
        await waitForBytes(h, c, EDITED, 'c after Apply');
        const applied = await viewCallAnswer(h, cc.view, 'review');
        assert.equal(applied.result.structuredContent?.outcome, 'applied');
        fs.writeFileSync(c, ORIGINAL);
        await mustFail(applied.request.params.arguments, '(c) the view\'s arguments replayed');
        assertBytes(c, ORIGINAL, '(c) c.txt after the replay');
      });
    });

    test('5. --approval auto: written at once, shown as written, Undo restores the bytes', { timeout: 60000 }, async () => {
      await withHost({ era, flags: ['--approval', 'auto'], files: { 'crlf.txt': ORIGINAL } }, async (h) => {
        const file = h.path('crlf.txt');
        const call = await h.callTool('edit', EDIT(file));
        assert.notEqual(call.result?.isError, true, textOf(call.result));
        assertBytes(file, EDITED, 'written at once');
        const p = payloadOf(call.result);
        assert.equal(p?.state, 'written', `payload state: ${show(p)}`);
        assert.equal(p.token, undefined, 'no token for a written change');
        const view = call.view;
        await assertShownInOrder(h, view, ['crlf.txt', 'Written', 'the old line', 'the new line'], 'the written change');
        assert.equal(await button(view, 'Apply').count(), 0, 'no Apply button for a written change');
        await button(view, /^Undo\b/).click();
        await waitForBytes(h, file, ORIGINAL, 'after Undo');
        const undo = await viewCallAnswer(h, view, 'undo');
        assert.notEqual(undo.result.isError, true, `undo: ${textOf(undo.result)}`);
      });
    });

    test('7. changes: the session patch in the view, Undo per file goes through the review and restores the bytes', { timeout: 60000 }, async () => {
      await withHost({ era, files: { 'crlf.txt': ORIGINAL, 'other.txt': 'x\n' } }, async (h) => {
        const file = h.path('crlf.txt');
        // A change applied in its view first.
        const call = await h.callTool('edit', EDIT(file));
        assertPending(call, file, ORIGINAL, 'the edit');
        await button(call.view, 'Apply').click();
        await waitForBytes(h, file, EDITED, 'after Apply');
        // The model asks what the session changed: the same view shows the whole patch.
        const changes = await h.callTool('changes', {});
        const p = payloadOf(changes.result);
        assert.equal(p?.state, 'patch', `changes payload: ${show(p)}`);
        assert.ok(p.undo.includes(file), `Undo offered for ${file}: ${show(p.undo)}`);
        await assertShownInOrder(h, changes.view, ['crlf.txt', 'the old line', 'the new line'], 'the session patch');
        assert.equal(await button(changes.view, 'Apply').count(), 0, 'nothing to apply in the session patch');
        // Undo from the patch: under --approval ask the undo itself awaits review in the view.
        await button(changes.view, /^Undo\b/).first().click();
        const undo = await viewCallAnswer(h, changes.view, 'undo');
        assert.equal(undo.result.structuredContent?.approval, 'pending', `the undo awaits review: ${textOf(undo.result)}`);
        assertBytes(file, EDITED, 'nothing undone before Apply');
        await button(changes.view, 'Apply').click();
        await waitForBytes(h, file, ORIGINAL, 'after the undo was applied');
        const applied = await viewCallAnswer(h, changes.view, 'review');
        assert.equal(applied.result.structuredContent?.outcome, 'applied', `the undo's review: ${textOf(applied.result)}`);
        await h.waitForModel((m) => /undo/i.test(m.text), 'the model told of the applied undo');
      });
    });

    test('6. the view: one resource under 150 KB that fetches nothing', { timeout: 60000 }, async () => {
      await withHost({ era, files: { 'crlf.txt': ORIGINAL } }, async (h) => {
        const read = await h.page.evaluate((uri) => window.host.rpc('resources/read', { uri }), VIEW_URI);
        const content = read.result?.contents?.[0];
        assert.equal(content?.uri, VIEW_URI);
        assert.equal(content.mimeType, MCP_APP_MIME);
        const size = Buffer.byteLength(content.text, 'utf8');
        assert.ok(size < 150 * 1024, `the view's HTML is ${size} bytes, over 150 KB`);
        // Drive the view through everything it draws, then count requests (Host.finish() fails on
        // any request but the host page's own).
        const call = await h.callTool('edit', EDIT(h.path('crlf.txt')));
        await h.waitForText(call.view, ['the new line']);
        await button(call.view, 'Side by side').click();
        await h.waitForText(call.view, ['the old line', 'the new line']);
        await button(call.view, 'Apply').click();
        await waitForBytes(h, h.path('crlf.txt'), EDITED, 'after Apply');
        await h.waitForText(call.view, ['Written']);
        assert.deepEqual(h.foreignRequests(), [], 'requests other than the host page\'s own');
      });
    });
  });
}

test('multi-file apply_diff (modified, created, deleted): shown, screenshots light and dark, applied', { timeout: 60000 }, async () => {
  const APP = 'import sys\n\ndef main():\n    print("hello")\n    return 0\n';
  const APP_AFTER = 'import sys\n\ndef main():\n    print("hello, world")\n    sys.stdout.flush()\n    return 0\n';
  const NOTES = '# Notes\n\nCreated by the review test.\n';
  const diff = [
    'diff --git a/src/app.py b/src/app.py',
    '--- a/src/app.py',
    '+++ b/src/app.py',
    '@@ -2,4 +2,5 @@',
    ' ',
    ' def main():',
    '-    print("hello")',
    '+    print("hello, world")',
    '+    sys.stdout.flush()',
    '     return 0',
    'diff --git a/docs/NOTES.md b/docs/NOTES.md',
    'new file mode 100644',
    '--- /dev/null',
    '+++ b/docs/NOTES.md',
    '@@ -0,0 +1,3 @@',
    '+# Notes',
    '+',
    '+Created by the review test.',
    'diff --git a/old.txt b/old.txt',
    'deleted file mode 100644',
    '--- a/old.txt',
    '+++ /dev/null',
    '@@ -1,2 +0,0 @@',
    '-obsolete',
    '-file',
    '',
  ].join('\n');
  await withHost({ era: 'legacy', theme: 'light', files: { 'src/app.py': APP, 'old.txt': 'obsolete\nfile\n' } }, async (h) => {
    const call = await h.callTool('apply_diff', { diff });
    assert.notEqual(call.result?.isError, true, textOf(call.result));
    const p = payloadOf(call.result);
    assert.equal(p?.state, 'pending', `payload: ${show(p)}`);
    assert.equal(p.additions, 5);
    assert.equal(p.removals, 3);
    assert.ok(!fs.existsSync(h.path('docs/NOTES.md')), 'nothing created before Apply');
    assert.ok(fs.existsSync(h.path('old.txt')), 'nothing deleted before Apply');
    const view = call.view;
    await assertShownInOrder(h, view, ['src/app.py', 'print("hello, world")', 'docs/NOTES.md', 'Created by the review test.', 'old.txt', 'obsolete'], 'three files');
    await h.waitForText(view, ['+5', `${MINUS}3`, '3 files']);
    await h.shot('review-multi-file-light');
    await h.setTheme('dark');
    await h.waitFor(() => h.uiMessages({ method: 'ui/notifications/host-context-changed' }).length > 0, 'host-context-changed');
    await h.waitFor(async () => (await view.frame.locator('html').getAttribute('data-theme')) === 'dark', 'the view to take the dark theme');
    await h.shot('review-multi-file-dark');
    await button(view, 'Side by side').click();
    await h.shot('review-multi-file-dark-side-by-side');
    await button(view, 'Apply').click();
    await h.waitFor(() => fs.existsSync(h.path('docs/NOTES.md')) && !fs.existsSync(h.path('old.txt')), 'the diff applied');
    assertBytes(h.path('src/app.py'), Buffer.from(APP_AFTER), 'src/app.py');
    assertBytes(h.path('docs/NOTES.md'), Buffer.from(NOTES), 'docs/NOTES.md');
    await h.waitForText(view, ['Written']);
    await h.shot('review-multi-file-dark-written');
    await h.setTheme('light');
    await h.shot('review-multi-file-light-written');
  });
});

test('a GBK file (issue 42): the view shows the change as text, its title says GBK, and Apply writes GBK', { timeout: 60000 }, async () => {
  const iconvGbk = (text) => execFileSync('iconv', ['-f', 'UTF-8', '-t', 'GBK'], { input: Buffer.from(text, 'utf8') });
  const TEXT = '# 用户资料的处理函数，保存名字和地址\ndef greet(name):\n    return "你好，" + name + "！欢迎回来"\n';
  await withHost({ era: 'legacy', theme: 'light', files: { 'greet.py': iconvGbk(TEXT) } }, async (h) => {
    const call = await h.callTool('edit', { file_path: 'greet.py', old_string: '欢迎回来', new_string: '很高兴见到你' });
    assert.notEqual(call.result?.isError, true, textOf(call.result));
    assert.equal(payloadOf(call.result)?.state, 'pending', `payload: ${show(payloadOf(call.result))}`);
    const view = call.view;
    await assertShownInOrder(h, view, ['edit of greet.py (written in gbk)', '！欢迎回来', '！很高兴见到你'],
      'the title names the encoding; the GBK change as text');
    await h.shot('review-gbk-light');
    await button(view, 'Apply').click();
    await h.waitForText(view, ['Written']);
    await h.waitForModel((m) => m.text.includes('greet.py'), 'the model told of the applied change');
    assertBytes(h.path('greet.py'), iconvGbk(TEXT.replace('欢迎回来', '很高兴见到你')), 'greet.py in GBK');
    await h.shot('review-gbk-written');
  });
});
