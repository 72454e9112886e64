// Issue 42 in the host matrix: what the hosts' tests share to check, through a real host, that a
// file in GBK reaches the model as its text and is edited in GBK, and that a write replacing real
// lines with an elision marker is refused with a message the model can act on.
//
// Why a module of its own: the same fixtures, model steps and expected words serve every host
// (Codex, Gemini CLI, Qwen Code, opencode); each host's test only knows how its host renders a
// tool result. The GBK bytes come from the system's iconv, not from our own code, so a test
// compares mcp-edit's writing with an independent encoder.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { holds, projectFile } from './harness.mjs';

/** The bytes iconv gives for the UTF-8 text `text` in `encoding` (GBK unless said). */
export function iconvFrom(text, encoding = 'GBK') {
  return execFileSync('iconv', ['-f', 'UTF-8', '-t', encoding], { input: Buffer.from(text, 'utf8') });
}

/** greet.py's text: enough Chinese in it for detection to settle on GBK. */
export const GBK_TEXT = '# 用户资料的处理函数，保存名字和地址\ndef greet(name):\n    return "你好，" + name + "！欢迎回来"\n';
/** greet.py's text after the model's edit (欢迎回来 -> 很高兴见到你). */
export const GBK_EDITED_TEXT = GBK_TEXT.replace('欢迎回来', '很高兴见到你');

/** a.py: three functions (lines 1-2, 5-6, 9-10 hold code). */
export const A_PY = 'def a():\n    return 1\n\n\ndef b():\n    return 2\n\n\ndef c():\n    return 3\n';
/** What a model that elides sends as a.py's new content. */
export const A_PY_ELIDED = 'def a(): return 10\n# ... rest of the code unchanged ...\n';

/**
 * The words the model must read in the refusal of the elided write: the marker, what it is, the
 * lines the write would drop, that nothing was written, and what to send instead.
 */
export const ELISION_WORDS = ['`# ... rest of the code unchanged ...`', 'is an elision marker', 'lines 1-2, 5-6, 9-10',
  'Nothing was written', 'Send the whole content'];

/** Writes greet.py (GBK, from iconv) and a.py into the project `project`. */
export function writeIssue42Files(project) {
  fs.writeFileSync(path.join(project, 'greet.py'), iconvFrom(GBK_TEXT));
  fs.writeFileSync(path.join(project, 'a.py'), A_PY);
}

/** What grep of 很高兴见到你 (step 4) must show the model: greet.py named with its encoding, then its line as text. */
export const GREP_WORDS = ['greet.py (gbk, searched and shown as its text)', '3:    return "你好，" + name + "！很高兴见到你"'];

/**
 * The model's steps, paths relative to the project (or under `dir`): 0 reads greet.py, 1 edits
 * it (欢迎回来 -> 很高兴见到你), 2 reads a.py, 3 writes a.py's elided content, 4 greps for the new
 * words (found in the GBK file as its text).
 */
export function issue42Steps(dir = '') {
  const at = (name) => (dir ? path.join(dir, name) : name);
  return [
    { tool: 'read', args: { file_path: at('greet.py') } },
    { tool: 'edit', args: { file_path: at('greet.py'), old_string: '欢迎回来', new_string: '很高兴见到你' } },
    { tool: 'read', args: { file_path: at('a.py') } },
    { tool: 'write', args: { file_path: at('a.py'), content: A_PY_ELIDED } },
    { tool: 'grep', args: dir ? { pattern: '很高兴见到你', path: dir } : { pattern: '很高兴见到你' } },
  ];
}

/** A short, printable account of bytes that differ: both in hex, for a failure message. */
export function bytesDiffer(got, want) {
  return `on disk (${got.length} bytes): ${got.toString('hex')}\n` +
    `iconv's  (${want.length} bytes): ${want.toString('hex')}\n` +
    `on disk read as GBK by iconv: ${gbkToUtf8(got)}`;
}

/** `bytes` decoded from GBK by iconv (or why it could not be), for failure messages. */
function gbkToUtf8(bytes) {
  try {
    return JSON.stringify(execFileSync('iconv', ['-f', 'GBK', '-t', 'UTF-8'], { input: bytes, stdio: ['pipe', 'pipe', 'pipe'] }).toString('utf8'));
  } catch (e) {
    return `(not valid GBK: ${String(e.stderr || e.message).trim()})`;
  }
}

/**
 * The checks of an issue42Steps() run for a host whose result for a step is one plain text the
 * model reads (runChatHost's `seen(step)`: Qwen Code, opencode), escaped or not, as subtests of
 * `t` so that each part fails on its own: (a) the GBK read shows the Chinese line and encoding
 * gbk; (b) the edit's diff shows the change and greet.py is iconv's GBK of the changed text; (c)
 * a.py was read, the elided write's refusal holds every one of ELISION_WORDS, and a.py keeps its
 * bytes; (d) grep shows GREP_WORDS. Each failure shows what the model saw (r.context()).
 */
export async function issue42Subtests(t, r) {
  await t.test('(a) read of greet.py (GBK): the model gets the Chinese text as text, and encoding gbk', () => {
    const read = r.seen(0);
    assert.ok(/^\s*3\t    return "你好，" \+ name \+ "！欢迎回来"$/m.test(read),
      `the model did not read greet.py's line 3 as text\n${r.context()}`);
    for (const word of ['你好', '欢迎回来', '用户资料']) assert.ok(read.includes(word), `the model did not read ${word}\n${r.context()}`);
    assert.ok(holds(read, '"encoding":"gbk"'), `the model was not told encoding gbk\n${r.context()}`);
  });
  await t.test("(b) edit 欢迎回来 -> 很高兴见到你: greet.py on disk is iconv's GBK of the changed text; the diff shows it", () => {
    const got = projectFile(r.s.project, 'greet.py');
    const want = iconvFrom(GBK_EDITED_TEXT);
    assert.ok(got.equals(want), `greet.py is not the GBK of the edited text\n${bytesDiffer(got, want)}\n${r.context()}`);
    assert.ok(/^\+    return "你好，" \+ name \+ "！很高兴见到你"$/m.test(r.seen(1)), `the edit's diff did not reach the model\n${r.context()}`);
  });
  await t.test('(c) the elided write of a.py: the model reads the whole refusal; a.py keeps its bytes', () => {
    assert.ok(/^\s*10\t    return 3$/m.test(r.seen(2)), `the read of a.py\n${r.context()}`);
    const refusal = r.seen(3);
    for (const words of ELISION_WORDS) {
      assert.ok(holds(refusal, words), `the model did not read ${JSON.stringify(words)}; it saw: ${refusal}\n${r.context()}`);
    }
    assert.equal(projectFile(r.s.project, 'a.py').toString('utf8'), A_PY, `a.py changed\n${r.context()}`);
  });
  await t.test('(d) grep of 很高兴见到你: found in the GBK file, on line 3, shown as text, the encoding named', () => {
    const found = r.seen(4);
    for (const words of GREP_WORDS) {
      assert.ok(holds(found, words), `the model did not read ${JSON.stringify(words)}; it saw: ${found}\n${r.context()}`);
    }
  });
}
