// Files in legacy encodings and UTF-16 through the real binary and the official SDK client (which
// checks structuredContent against read's outputSchema), with the bytes made and checked by the
// system's own `iconv` program, independently of the server: each file is read as its text, found
// by grep as text, edited,
// and comes back as exactly what iconv makes of the changed text; a character the encoding cannot
// hold is refused naming its line, and the file keeps its bytes.
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, test } from 'node:test';
import {
  makeTempDir, requireBinary, textOf, show,
} from './helpers.mjs';
import { withToolClient } from './tool_client.mjs';

requireBinary();

/** `text` (a JS string) in `charset` as iconv writes it; `bom` in front. */
function iconvTo(text, charset, bom = Buffer.alloc(0)) {
  return Buffer.concat([bom, execFileSync('iconv', ['-f', 'UTF-8', '-t', charset], { input: Buffer.from(text, 'utf8') })]);
}
/** The bytes (BOM removed) back to text by iconv. */
function iconvFrom(bytes, charset) {
  return execFileSync('iconv', ['-f', charset, '-t', 'UTF-8'], { input: bytes }).toString('utf8');
}

const FILES = [
  { name: 'gbk.py', charset: 'GBK', encoding: 'gbk',
    text: '# 用户资料的处理函数，保存名字和地址\ndef greet(name):\n    return "你好，" + name + "！欢迎回来"\n',
    old: '欢迎回来', new: '很高兴见到你', bad: '欢迎😀', badLine: "line 3: '😀' (U+1F600) cannot be written in gbk" },
  { name: 'sjis.js', charset: 'CP932', encoding: 'shift_jis',
    text: '// ユーザーの名前と住所を保存する関数です\nconst greeting = "こんにちは、世界！";\nconst dir = "C:\\\\temp\\\\";\n',
    old: '世界', new: '皆さん', bad: '세계', badLine: "line 2: '세' (U+C138) cannot be written in shift_jis" },
  { name: 'cp1252.txt', charset: 'CP1252', encoding: 'windows-1252',
    text: 'Größenänderung für Fenster – „Übersicht“ über alle Einträge\r\nCafé crème brûlée à la française — déjà vu',
    old: 'déjà vu', new: 'voilà 5 €', bad: 'Ωmega', badLine: "line 2: 'Ω' (U+03A9) cannot be written in windows-1252" },
  { name: 'latin1.py', charset: 'LATIN1', encoding: 'iso-8859-1',
    text: '# -*- coding: latin-1 -*-\nnom = "Élodie Françoise"\n',
    old: 'Élodie', new: 'Hélène', bad: '€lodie', badLine: "line 2: '€' (U+20AC) cannot be written in iso-8859-1" },
  { name: 'utf16le.txt', charset: 'UTF-16LE', encoding: 'utf-16le', bom: Buffer.from([0xff, 0xfe]),
    text: '名前 = "テスト"\r\nvalue = 1\r\n', old: 'テスト', new: '試験 😀', bad: null },
  { name: 'utf16be.txt', charset: 'UTF-16BE', encoding: 'utf-16be', bom: Buffer.from([0xfe, 0xff]),
    text: 'Grüße\nzweite Zeile\n', old: 'Grüße', new: 'Größe', bad: null },
];

describe('files in their own encodings, checked with iconv', { concurrency: true }, () => {
  for (const f of FILES) {
    test(`${f.encoding}: read as text, edited, written back byte-exact`, async () => {
      const dir = makeTempDir();
      const file = path.join(dir, f.name);
      const before = iconvTo(f.text, f.charset, f.bom);
      fs.writeFileSync(file, before);
      await withToolClient(dir, `enc-${f.encoding}`, ['--approval', 'auto'], async (call) => {
        const read = await call('read', { file_path: f.name });
        assert.notEqual(read.isError, true, show(read).slice(0, 400));
        assert.equal(read.structuredContent.encoding, f.encoding, show(read.structuredContent));
        assert.match(read.structuredContent.encoding_decided_by, new RegExp(`^${f.encoding} \\(`));
        const firstLine = f.text.split(/\r?\n/)[0];
        assert.ok(textOf(read).includes(`\t${firstLine}`), `read shows the first line as text: ${textOf(read).slice(0, 300)}`);
        if (f.bad) {
          const refused = await call('edit', { file_path: f.name, old_string: f.old, new_string: f.bad });
          assert.equal(refused.isError, true);
          assert.ok(textOf(refused).includes(f.badLine), textOf(refused));
          assert.deepEqual(fs.readFileSync(file), before, 'a refused edit leaves the bytes');
        }
        // grep finds the text the model read (as UTF-8), on the line read numbers, in this file alone.
        const found = await call('grep', { pattern: f.old, literal: true });
        assert.notEqual(found.isError, true, textOf(found));
        const oldLine = f.text.split(/\r?\n/).findIndex((line) => line.includes(f.old)) + 1;
        assert.deepEqual(found.structuredContent.files,
          [{ path: f.name, matches: 1, lines: [oldLine], encoding: f.encoding }], show(found.structuredContent));
        const edit = await call('edit', { file_path: f.name, old_string: f.old, new_string: f.new });
        assert.notEqual(edit.isError, true, textOf(edit));
        assert.ok(edit.structuredContent.diff.includes(f.new), `the diff is shown as text: ${edit.structuredContent.diff}`);
      });
      const after = fs.readFileSync(file);
      const want = f.text.replace(f.old, f.new);
      assert.deepEqual(after, iconvTo(want, f.charset, f.bom), 'the file is what iconv makes of the changed text');
      const bomSize = f.bom ? f.bom.length : 0;
      assert.equal(iconvFrom(after.subarray(bomSize), f.charset), want, 'iconv reads the changed text back');
    });
  }
});
