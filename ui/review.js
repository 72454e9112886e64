/* review.js: the script of mcp-edit's review view (ui/review.html; inlined there at build time).
   It speaks MCP Apps to the host by hand (postMessage JSON-RPC 2.0 with window.parent), draws the
   diff of a change from result._meta["mcp-edit/review"] and sends the human's decision (the
   app-only tool `review`) or an undo back through the host. Contract: ui/README.md. */
(function () {
  'use strict';

  var PROTOCOL = '2026-01-26';
  var KEY = 'mcp-edit/review';
  var MINUS = '\u2212';
  var FILE_LINES = 400;   // lines drawn per file at first
  var TOTAL_LINES = 2000; // lines drawn in all at first
  var SLACK = 40;         // a file with at most this many more lines is drawn whole
  var CHUNK = 500;        // lines drawn per task beyond what is drawn at once
  var FIRST_FILES = 50;   // files drawn at first
  var SCAN = 4000;        // intra-line highlight: at most this many characters compared each way
  var NO_HL = 50000;      // ... and no highlight at all for longer lines
  var STATES = {
    pending: 'Awaiting your review \u2014 nothing is written until you apply',
    dry_run: 'Dry run \u2014 nothing written',
    patch: 'This session\u2019s changes'
  };
  var APPROVAL = { user: 'you', session: 'you, for this session', policy: 'the server\u2019s policy' };

  var parent = window.parent;
  var caps = {};          // hostCapabilities of the initialize answer
  var view = { mode: 'unified', payload: null, files: [], filesShown: 0, busy: false };
  var $view = document.getElementById('view');
  var $status = document.getElementById('status');
  var $live = document.getElementById('live');

  window.__mcpEditReview = { rendered: 0, lastRenderMs: 0 };

  /* ---- JSON-RPC 2.0 over postMessage ---- */

  var nextId = 1;
  var pending = new Map();

  function post(msg) { parent.postMessage(msg, '*'); }

  function request(method, params, timeoutMs) {
    var id = nextId++;
    var ms = timeoutMs || 30000;
    return new Promise(function (resolve, reject) {
      var timer = setTimeout(function () {
        pending.delete(id);
        reject(new Error('no answer from the host to ' + method + ' after ' + Math.round(ms / 1000) + ' s'));
      }, ms);
      pending.set(id, { resolve: resolve, reject: reject, timer: timer });
      post({ jsonrpc: '2.0', id: id, method: method, params: params });
    });
  }

  function notify(method, params) { post({ jsonrpc: '2.0', method: method, params: params }); }

  function onMessage(ev) {
    if (ev.source !== parent) return;
    var m = ev.data;
    if (!m || typeof m !== 'object' || m.jsonrpc !== '2.0') return;
    if (typeof m.method === 'string') {
      if (m.id !== undefined && m.id !== null) onRequest(m);
      else onNotification(m.method, m.params && typeof m.params === 'object' ? m.params : {});
      return;
    }
    var p = pending.get(m.id);
    if (!p) return;
    pending.delete(m.id);
    clearTimeout(p.timer);
    if (m.error) p.reject(new Error((m.error && m.error.message) || 'error from the host'));
    else p.resolve(m.result);
  }

  function onRequest(m) {
    if (m.method === 'ui/resource-teardown' || m.method === 'ping') {
      post({ jsonrpc: '2.0', id: m.id, result: {} });
    } else {
      post({ jsonrpc: '2.0', id: m.id, error: { code: -32601, message: 'Method not found: ' + m.method } });
    }
  }

  function onNotification(method, params) {
    try {
      if (method === 'ui/notifications/host-context-changed') applyContext(params);
      else if (method === 'ui/notifications/tool-input') onToolInput(params);
      else if (method === 'ui/notifications/tool-result') showResult(params);
      else if (method === 'ui/notifications/tool-cancelled') onCancelled(params);
    } catch (e) {
      showText('The review view failed: ' + (e && e.message), true);
    }
  }

  /* ---- host context: theme and style variables ---- */

  function applyContext(ctx) {
    if (!ctx || typeof ctx !== 'object') return;
    var root = document.documentElement;
    if (ctx.theme === 'light' || ctx.theme === 'dark') root.setAttribute('data-theme', ctx.theme);
    var vars = ctx.styles && ctx.styles.variables;
    if (vars && typeof vars === 'object') {
      Object.keys(vars).forEach(function (k) {
        if (!/^--[\w-]+$/.test(k)) return;
        if (typeof vars[k] === 'string') root.style.setProperty(k, vars[k]);
        else if (vars[k] === null) root.style.removeProperty(k);
      });
    }
  }

  /* ---- size reporting ---- */

  function watchSize() {
    var last = -1;
    function measure() {
      var h = Math.ceil(document.documentElement.getBoundingClientRect().height);
      if (h !== last) {
        last = h;
        notify('ui/notifications/size-changed', { height: h });
      }
    }
    if (window.ResizeObserver) new ResizeObserver(measure).observe(document.documentElement);
    measure();
  }

  /* ---- small helpers ---- */

  var ESC_TEST = /[&<>"\r]/;
  var ESC_RE = /[&<>"\r]/g;
  var ESC_MAP = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', '\r': '<span class="cc">\\r</span>' };
  function escOne(c) { return ESC_MAP[c]; }
  function esc(s) { return ESC_TEST.test(s) ? s.replace(ESC_RE, escOne) : s; }

  // Paths are shown as text; a control character in one is shown as its C escape (\n), marked.
  var CC_RE = /[\x00-\x1f\x7f]/g;
  var CC = { 9: '\\t', 10: '\\n', 13: '\\r' };
  function ccText(c) {
    var n = c.charCodeAt(0);
    return CC[n] || '\\x' + (n < 16 ? '0' : '') + n.toString(16);
  }
  function shownPath(p) { return String(p).replace(CC_RE, ccText); }
  function pathHtml(p) {
    return String(p).split(/([\x00-\x1f\x7f])/).map(function (seg, k) {
      return k % 2 ? '<span class="cc">' + ccText(seg) + '</span>' : esc(seg);
    }).join('');
  }

  function plural(n, word) { return n + ' ' + word + (n === 1 ? '' : 's'); }
  function counts(a, r) {
    return '<span class="pa">+' + a + '</span> <span class="pd">' + MINUS + r + '</span>';
  }
  function announce(msg) {
    $live.textContent = '';
    setTimeout(function () { $live.textContent = msg; }, 30);
  }
  function setStatus(msg) {
    $status.textContent = msg || '';
    $status.hidden = !msg;
  }
  function payloadOf(res) {
    var p = res && res._meta && res._meta[KEY];
    return p && typeof p === 'object' ? p : null;
  }
  function textOf(res) {
    var c = res && Array.isArray(res.content) ? res.content[0] : null;
    return c && typeof c.text === 'string' ? c.text : '';
  }
  function num(v, dflt) { return typeof v === 'number' && isFinite(v) ? v : dflt; }

  /* ---- the diff parser ---- */

  var C_ESC = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  var encoder = new TextEncoder();
  var decoder = new TextDecoder();

  // Unquotes a git C-quoted name starting at s[0] === '"': [name, the text after the closing quote].
  function unquote(s) {
    var bytes = [];
    var i = 1;
    var run = '';
    function flush() {
      if (run) { encoder.encode(run).forEach(function (b) { bytes.push(b); }); run = ''; }
    }
    for (; i < s.length; i++) {
      var c = s.charAt(i);
      if (c === '"') break;
      if (c !== '\\') { run += c; continue; }
      flush();
      var n = s.charAt(++i);
      if (n >= '0' && n <= '7') {
        var m = /^[0-7]{1,3}/.exec(s.slice(i, i + 3))[0];
        bytes.push(parseInt(m, 8) & 255);
        i += m.length - 1;
      } else {
        bytes.push(C_ESC[n] !== undefined ? C_ESC[n] : n.charCodeAt(0) & 255);
      }
    }
    flush();
    return [decoder.decode(new Uint8Array(bytes)), s.slice(i + 1)];
  }

  function rawPath(s) { return s.charAt(0) === '"' ? unquote(s)[0] : s; }

  // The path of a ---/+++ line (after the marker): null for /dev/null, without its a/ or b/.
  function headerPath(s, prefix) {
    var p = s.charAt(0) === '"' ? unquote(s)[0] : s.split('\t')[0];
    if (p === '/dev/null') return null;
    return p.indexOf(prefix) === 0 ? p.slice(prefix.length) : p;
  }

  // Two paths separated by sep ("a/x b/y" of diff --git, "a/x and b/y" of Binary files).
  function twoPaths(s, sep) {
    var first, second;
    if (s.charAt(0) === '"') {
      var u = unquote(s);
      if (u[1].indexOf(sep) !== 0) return null;
      first = u[0];
      second = u[1].slice(sep.length);
    } else {
      var half = (s.length - sep.length) / 2;
      if (sep === ' ' && s.slice(0, 2) === 'a/' && s.slice(half, half + 3) === ' b/' &&
          s.slice(2, half) === s.slice(half + 3)) {
        first = s.slice(0, half);
        second = s.slice(half + 1);
      } else {
        var at = -1;
        [sep + '"', sep + 'b/', sep + '/dev/null'].forEach(function (c) {
          var k = s.indexOf(c);
          if (k > 0 && (at < 0 || k < at)) at = k;
        });
        if (at < 0) return null;
        first = s.slice(0, at);
        second = s.slice(at + sep.length);
      }
    }
    return [headerPath(first, 'a/'), headerPath(second, 'b/')];
  }

  function parseDiff(text) {
    var files = [];
    var f = null;
    var lines = text.split('\n');
    var remOld = 0, remNew = 0, oldNo = 0, newNo = 0;
    var dels = [], adds = [];
    if (lines.length && lines[lines.length - 1] === '') lines.pop();

    function closeBlock() {
      for (var k = 0; k < dels.length && k < adds.length; k++) {
        f.rows[dels[k]].p = adds[k];
        f.rows[adds[k]].p = dels[k];
      }
      dels = [];
      adds = [];
    }
    function newFile() {
      if (f) closeBlock();
      f = {
        oldPath: null, newPath: null, gitOld: null, gitNew: null, renameFrom: null, renameTo: null,
        created: false, deleted: false, binary: false, minus: false, plus: false, inHunk: false,
        rows: [], n: 0, add: 0, del: 0, maxNo: 0, cut: 0, drawn: 0
      };
      files.push(f);
    }
    function headerStart() { if (!f || f.inHunk || f.plus || f.binary) newFile(); }

    for (var i = 0; i < lines.length; i++) {
      var L = lines[i];
      var c = L.charAt(0);
      if (f && f.inHunk) {
        var counted = remOld > 0 || remNew > 0;
        if (counted || ((c === '+' || c === '-' || c === ' ') &&
            L.slice(0, 4) !== '--- ' && L.slice(0, 4) !== '+++ ')) {
          if (c === ' ' || (L === '' && counted)) {
            if (dels.length || adds.length) closeBlock();
            f.rows.push({ t: 'c', s: L.slice(1), o: oldNo++, n: newNo++ });
            f.n++; remOld--; remNew--;
            continue;
          }
          if (c === '-') {
            if (adds.length) closeBlock();
            dels.push(f.rows.length);
            f.rows.push({ t: 'd', s: L.slice(1), o: oldNo++, n: 0 });
            f.n++; f.del++; remOld--;
            continue;
          }
          if (c === '+') {
            adds.push(f.rows.length);
            f.rows.push({ t: 'a', s: L.slice(1), o: 0, n: newNo++ });
            f.n++; f.add++; remNew--;
            continue;
          }
        }
        if (c === '\\') {
          var last = f.rows[f.rows.length - 1];
          if (last && last.t !== 'h') last.eof = true;
          continue;
        }
      }
      if (L.indexOf('diff --git ') === 0) {
        newFile();
        var pr = twoPaths(L.slice(11), ' ');
        if (pr) { f.gitOld = pr[0]; f.gitNew = pr[1]; }
      } else if (L.indexOf('--- ') === 0) {
        if (!f || f.inHunk || f.minus || f.plus || f.binary) newFile();
        f.minus = true;
        f.oldPath = headerPath(L.slice(4), 'a/');
        if (f.oldPath === null) f.created = true;
      } else if (L.indexOf('+++ ') === 0 && f && !f.inHunk) {
        f.plus = true;
        f.newPath = headerPath(L.slice(4), 'b/');
        if (f.newPath === null) f.deleted = true;
      } else if (L.indexOf('@@ ') === 0) {
        var m = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(L);
        if (!m) continue;
        if (!f) newFile();
        if (dels.length || adds.length) closeBlock();
        oldNo = +m[1]; remOld = m[2] === undefined ? 1 : +m[2];
        newNo = +m[3]; remNew = m[4] === undefined ? 1 : +m[4];
        f.maxNo = Math.max(f.maxNo, oldNo + remOld, newNo + remNew);
        f.rows.push({ t: 'h', s: L });
        f.inHunk = true;
      } else if (L.indexOf('rename from ') === 0) {
        headerStart(); f.renameFrom = rawPath(L.slice(12));
      } else if (L.indexOf('rename to ') === 0) {
        headerStart(); f.renameTo = rawPath(L.slice(10));
      } else if (L.indexOf('new file mode') === 0) {
        headerStart(); f.created = true;
      } else if (L.indexOf('deleted file mode') === 0) {
        headerStart(); f.deleted = true;
      } else if (L.indexOf('Binary files ') === 0) {
        var bp = twoPaths(L.slice(13).replace(/ differ$/, ''), ' and ') || [null, null];
        if (!f || f.inHunk || f.binary ||
            (f.plus && ((bp[1] || bp[0]) !== (f.newPath || f.oldPath)))) newFile();
        f.binary = true;
        if (!f.minus) { f.oldPath = bp[0]; if (bp[0] === null && bp[1] !== null) f.created = true; }
        if (!f.plus) { f.newPath = bp[1]; if (bp[1] === null && bp[0] !== null) f.deleted = true; }
      }
    }
    if (f) closeBlock();

    files.forEach(function (g) {
      var from = g.oldPath || g.renameFrom || g.gitOld;
      var to = g.newPath || g.renameTo || g.gitNew;
      g.path = (g.deleted ? from || to : to || from) || '(unnamed file)';
      g.moved = g.renameFrom ||
        (!g.created && !g.deleted && from && to && from !== to ? from : null);
      g.nw = Math.min(9, Math.max(2, String(g.maxNo).length));
    });
    return files;
  }

  /* ---- intra-line highlights ---- */

  // [common prefix length, common suffix length] of a removed and an added line, or null.
  function common(a, b) {
    if (a.length > NO_HL || b.length > NO_HL) return null;
    var n = Math.min(a.length, b.length);
    var lim = Math.min(n, SCAN);
    var p = 0;
    while (p < lim && a.charCodeAt(p) === b.charCodeAt(p)) p++;
    if (p > 0 && (a.charCodeAt(p - 1) & 0xfc00) === 0xd800) p--;
    var lim2 = Math.min(n - p, SCAN);
    var q = 0;
    while (q < lim2 && a.charCodeAt(a.length - 1 - q) === b.charCodeAt(b.length - 1 - q)) q++;
    if (q > 0 && (a.charCodeAt(a.length - q) & 0xfc00) === 0xdc00) q--;
    return p + q ? [p, q] : null;
  }

  function lineHtml(f, r) {
    var s = r.s;
    if (r.p === undefined) return esc(s);
    if (r.hl === undefined) {
      var o = f.rows[r.p];
      r.hl = o.hl = r.t === 'd' ? common(s, o.s) : common(o.s, s);
    }
    if (!r.hl) return esc(s);
    var end = s.length - r.hl[1];
    if (end <= r.hl[0]) return esc(s);
    return esc(s.slice(0, r.hl[0])) + '<span class="x">' + esc(s.slice(r.hl[0], end)) + '</span>' +
      esc(s.slice(end));
  }

  var EOF = '<span class="eof">no newline at end of file</span>';

  /* ---- drawing the diff ---- */

  // Rows are one element each, their gutter (line numbers and sign) drawn by CSS from data-g:
  // few nodes for large diffs, and copying the text copies no line numbers.
  var SIGN = { c: ' ', a: '+', d: '\u2212' };
  var SPACES = '          ';
  function pad(v, w) {
    var s = String(v);
    return s.length >= w ? s : SPACES.slice(0, w - s.length) + s;
  }

  function unifiedRows(f, a, b) {
    var out = '';
    var w = f.nw;
    for (var k = a; k < b; k++) {
      var r = f.rows[k];
      if (r.t === 'h') {
        out += '<div class="r h">' + esc(r.s) + '</div>';
      } else {
        out += '<div class="r ' + r.t + '" data-g="' + pad(r.t === 'a' ? '' : r.o, w) + ' ' +
          pad(r.t === 'd' ? '' : r.n, w) + ' ' + SIGN[r.t] + '">' + lineHtml(f, r) + (r.eof ? EOF : '') +
          '</div>';
      }
    }
    return out;
  }

  function sideCell(f, r, side) {
    if (!r) return '<div class="s e"></div>';
    return '<div class="s ' + r.t + '" data-g="' + pad(side ? r.n : r.o, f.nw) + ' ' + SIGN[r.t] + '">' +
      lineHtml(f, r) + (r.eof ? EOF : '') + '</div>';
  }

  function splitRows(f, a, b) {
    var out = '';
    var rows = f.rows;
    var k = a;
    while (k < b) {
      var r = rows[k];
      if (r.t === 'h') {
        out += '<div class="q h"><div class="hh">' + esc(r.s) + '</div></div>';
        k++;
      } else if (r.t === 'c') {
        out += '<div class="q">' + sideCell(f, r, 0) + sideCell(f, r, 1) + '</div>';
        k++;
      } else {
        var d = [], ad = [];
        while (k < b && rows[k].t === 'd') d.push(rows[k++]);
        while (k < b && rows[k].t === 'a') ad.push(rows[k++]);
        for (var j = 0; j < d.length || j < ad.length; j++) {
          out += '<div class="q">' + sideCell(f, d[j], 0) + sideCell(f, ad[j], 1) + '</div>';
        }
      }
    }
    return out;
  }

  function rowsHtml(f, a, b) {
    return view.mode === 'split' ? splitRows(f, a, b) : unifiedRows(f, a, b);
  }

  // From row k on, about `lines` more lines up to row `limit` without cutting a change block
  // (side by side pairs its lines), within reason: [the end row, the lines in between].
  function reach(f, k, lines, limit) {
    var rows = f.rows, n = 0, extra = 0;
    while (k < limit && n < lines) {
      if (rows[k].t !== 'h') n++;
      k++;
    }
    while (n > 0 && k < limit && extra < 200 && rows[k - 1].t !== 'c' && rows[k].t !== 'c' &&
           rows[k].t !== 'h' && !(rows[k - 1].t === 'a' && rows[k].t === 'd')) {
      n++; k++; extra++;
    }
    return [k, n];
  }

  // Decides how many lines of files [from, to) are shown at first (f.cut); nothing is drawn yet.
  function planCuts(from, to) {
    var budget = TOTAL_LINES;
    for (var i = from; i < to; i++) {
      var f = view.files[i];
      var want = Math.min(FILE_LINES, budget);
      if (want > 0 && f.n <= want + SLACK) want = f.n;
      var r = reach(f, 0, want, f.rows.length);
      f.cut = r[0];
      f.cutLines = r[1];
      f.at = 0;
      f.drawn = 0;
      budget = Math.max(0, budget - r[1]);
    }
  }

  // The HTML of the next rows of file f: about `lines` lines, up to its cut.
  function take(f, lines) {
    var r = reach(f, f.at, lines, f.cut);
    var h = rowsHtml(f, f.at, r[0]);
    f.at = r[0];
    f.drawn += r[1];
    return h;
  }

  // What is shown but not drawn yet is drawn CHUNK lines per task, the page staying responsive.
  var gen = 0, jobs = [], timer = 0;
  function later(i) {
    jobs.push({ gen: gen, i: i });
    if (!timer) timer = setTimeout(pump, 0);
  }
  function pump() {
    timer = 0;
    var t0 = performance.now();
    while (jobs.length) {
      var j = jobs[0];
      var f = j.gen === gen ? view.files[j.i] : null;
      var box = f && document.getElementById('rows-' + j.i);
      if (!box || f.at >= f.cut) { jobs.shift(); continue; }
      box.insertAdjacentHTML('beforeend', take(f, CHUNK));
      if (f.at >= f.cut) jobs.shift();
      rendered(t0);
      break;
    }
    if (jobs.length) timer = setTimeout(pump, 0);
  }

  function moreButton(f, i) {
    var hidden = f.n - f.cutLines;
    return hidden > 0 ? '<div class="more"><button type="button" data-act="more" data-f="' + i +
      '">Show ' + plural(hidden, 'more line') + '</button></div>' : '';
  }

  // A file's section, its rows drawn within budget.left lines (the rest later).
  function fileHtml(f, i, budget) {
    var h = '<section class="file w' + f.nw + '" id="file-' + i + '" tabindex="-1" aria-labelledby="path-' + i +
      '"><div class="fh"><h2 class="path" id="path-' + i + '">' + pathHtml(f.path) + '</h2>';
    if (f.created) h += '<span class="b b-new">created</span>';
    if (f.deleted) h += '<span class="b b-del">deleted</span>';
    if (f.moved) h += '<span class="b b-mv">moved from ' + pathHtml(f.moved) + '</span>';
    if (f.binary) h += '<span class="b">binary</span>';
    if (f.rows.length) h += '<span class="cnt">' + counts(f.add, f.del) + '</span>';
    h += '</div>';
    f.at = 0;
    f.drawn = 0;
    if (f.binary && !f.rows.length) {
      h += '<p class="note">Binary file: its contents are not shown.</p>';
    } else if (!f.rows.length) {
      h += '<p class="note">No change to the contents.</p>';
    } else {
      var rows = take(f, budget.left);
      budget.left = Math.max(0, budget.left - f.drawn);
      if (f.at < f.cut) later(i);
      h += view.mode === 'split'
        ? '<div class="body sbs" id="rows-' + i + '">' + rows + '</div>'
        : '<div class="body fb"><div class="rows" id="rows-' + i + '">' + rows + '</div></div>';
    }
    return h + moreButton(f, i) + '</section>';
  }

  function filesHtml(from, to) {
    var parts = [];
    var budget = { left: TOTAL_LINES };
    for (var i = from; i < to; i++) parts.push(fileHtml(view.files[i], i, budget));
    var rest = view.files.length - to;
    if (rest > 0) {
      parts.push('<div class="more more-files"><button type="button" data-act="files">Show ' +
        plural(rest, 'more file') + '</button></div>');
    }
    return parts.join('');
  }

  function drawnLines() {
    var n = 0;
    for (var i = 0; i < view.filesShown; i++) n += view.files[i].drawn;
    return n;
  }

  function rendered(t0) {
    void document.documentElement.offsetHeight; // layout is part of drawing
    window.__mcpEditReview = { rendered: drawnLines(), lastRenderMs: performance.now() - t0 };
  }

  // A new view: what was queued for the old one is dropped.
  function fresh() {
    gen++;
    jobs = [];
  }

  /* ---- the whole view ---- */

  function stateHtml(p) {
    var st = p.state;
    var text = STATES[st];
    var cls = st === 'pending' ? 'st-pending' : 'st-other';
    if (st === 'written' || st === 'applied') {
      text = 'Written';
      if (APPROVAL[p.approval]) text += ' \u2014 approved by ' + APPROVAL[p.approval];
      cls = 'st-written';
    }
    return '<p class="state ' + cls + '" id="state">' + esc(text || String(st || 'unknown state')) +
      '</p>';
  }

  function renderPayload(p, opts) {
    var t0 = performance.now();
    opts = opts || {};
    setStatus('');
    fresh();
    view.payload = p;
    view.busy = false;
    view.files = parseDiff(typeof p.diff === 'string' ? p.diff : '');
    view.filesShown = Math.min(view.files.length, FIRST_FILES);
    planCuts(0, view.filesShown);
    var files = view.files;
    var add = num(p.additions, files.reduce(function (s, f) { return s + f.add; }, 0));
    var del = num(p.removals, files.reduce(function (s, f) { return s + f.del; }, 0));
    var title = typeof p.title === 'string' && p.title ? p.title : 'Change';

    var h = '<header class="top"><h1 id="title" tabindex="-1">' + esc(title) + '</h1>' +
      '<p class="sum">' + counts(add, del) + ' <span class="sep">\u00b7</span> ' +
      plural(files.length, 'file') + '</p>' + stateHtml(p);
    if (p.asked_again) {
      h += '<p class="again" id="again" tabindex="-1"><strong>Shown again:</strong> ' + esc(String(p.asked_again)) +
        '</p>';
    }
    if (p.diff_truncated) h += '<p class="warn">The diff was cut by the server: the rest is not shown.</p>';
    h += '</header>';

    if (p.state === 'pending') {
      h += '<section class="actions" aria-label="Your decision">' +
        '<label for="fb">Feedback for the agent (optional)</label>' +
        '<textarea id="fb" rows="2" spellcheck="true"></textarea>' +
        '<div class="btns">' +
        '<button type="button" class="primary" data-act="apply" aria-describedby="title">Apply</button>' +
        '<button type="button" data-act="apply_session" aria-describedby="title hint">Apply all this session</button>' +
        '<button type="button" class="danger" data-act="reject" aria-describedby="title">Reject</button>' +
        '</div><p class="hint" id="hint">\u201cApply all this session\u201d applies this change and lets the ' +
        'rest of this session\u2019s changes be written without asking.</p>' +
        '<div id="outcome" class="outcome" hidden></div></section>';
    }
    var undo = Array.isArray(p.undo) ? p.undo.filter(function (u) { return typeof u === 'string'; }) : [];
    if (undo.length && (p.state === 'written' || p.state === 'applied' || p.state === 'patch')) {
      h += '<section class="undo" aria-labelledby="undo-h"><p class="lbl" id="undo-h">Undo a written file</p><ul>' +
        undo.map(function (u, i) {
        return '<li><button type="button" data-act="undo" data-i="' + i + '" aria-label="Undo ' +
          esc(shownPath(u)) + '">Undo</button><span class="path">' + pathHtml(u) + '</span></li>';
      }).join('') + '</ul><div id="undo-out" class="outcome" hidden></div></section>';
    }
    view.undo = undo;
    if (files.length) {
      h += '<div class="bar" role="group" aria-label="Diff layout">' +
        '<button type="button" data-act="mode" data-mode="unified" aria-pressed="' + (view.mode === 'unified') +
        '">Unified</button><button type="button" data-act="mode" data-mode="split" aria-pressed="' +
        (view.mode === 'split') + '">Side by side</button></div>';
    } else {
      h += '<p class="note">The diff is empty.</p>';
    }
    h += '<div id="diff" class="diff ' + view.mode + '">' + filesHtml(0, view.filesShown) + '</div>';
    $view.innerHTML = h;
    var fb = document.getElementById('fb');
    if (fb && opts.feedback) fb.value = opts.feedback;
    rendered(t0);

    var said = title + ': ' + (p.state === 'pending' ? 'awaiting your review' :
      document.getElementById('state').textContent) + '.';
    if (p.asked_again) said = 'Shown again: ' + p.asked_again + '. ' + said;
    announce(said);
    if (opts.focus) {
      var target = document.getElementById(p.asked_again ? 'again' : 'title');
      if (target) target.focus();
    }
  }

  function redrawDiff() {
    var t0 = performance.now();
    var d = document.getElementById('diff');
    if (!d) return;
    fresh();
    d.className = 'diff ' + view.mode;
    d.innerHTML = filesHtml(0, view.filesShown);
    rendered(t0);
  }

  function showMore(i) {
    var t0 = performance.now();
    var f = view.files[i];
    var sec = document.getElementById('file-' + i);
    var box = document.getElementById('rows-' + i);
    if (!f || !sec || !box) return;
    f.cut = f.rows.length;
    f.cutLines = f.n;
    if (!jobs.some(function (j) { return j.gen === gen && j.i === i; })) {
      box.insertAdjacentHTML('beforeend', take(f, CHUNK));
      if (f.at < f.cut) later(i);
    }
    var more = sec.querySelector('.more');
    if (more) more.remove();
    sec.focus({ preventScroll: true });
    rendered(t0);
  }

  function showMoreFiles() {
    var t0 = performance.now();
    var d = document.getElementById('diff');
    var from = view.filesShown;
    var to = view.files.length;
    planCuts(from, to);
    view.filesShown = to;
    var btn = d.querySelector('.more-files');
    if (btn) btn.remove();
    d.insertAdjacentHTML('beforeend', filesHtml(from, to));
    var first = document.getElementById('file-' + from);
    if (first) first.focus({ preventScroll: true });
    rendered(t0);
  }

  function showText(text, isError) {
    var t0 = performance.now();
    setStatus('');
    fresh();
    view.payload = null;
    view.files = [];
    view.filesShown = 0;
    $view.innerHTML = '<pre class="plain' + (isError ? ' err" role="alert' : '') + '">' +
      esc(text || (isError ? 'The call failed.' : 'Done.')) + '</pre>';
    rendered(t0);
  }

  function showResult(res) {
    res = res && typeof res === 'object' ? res : {};
    var p = payloadOf(res);
    if (p) renderPayload(p);
    else showText(textOf(res), !!res.isError);
  }

  function onToolInput(params) {
    var a = params && params.arguments;
    var path = a && [a.file_path, a.from, a.path].filter(function (v) {
      return typeof v === 'string' && v;
    })[0];
    if (!view.payload) {
      setStatus(path ? 'Preparing the change to ' + shownPath(path) + '\u2026' : 'Preparing the change\u2026');
    }
  }

  function onCancelled(params) {
    var why = params && typeof params.reason === 'string' && params.reason ? ': ' + params.reason : '';
    setStatus('The call was cancelled' + why + '.');
    announce($status.textContent);
  }

  /* ---- decisions ---- */

  function setOutcome(id, text, kind) {
    var box = document.getElementById(id);
    if (!box) return;
    box.hidden = !text;
    box.className = 'outcome' + (kind ? ' ' + kind : '');
    box.setAttribute('role', kind === 'err' ? 'alert' : 'status');
    box.textContent = text || '';
  }

  function focusOn(id) {
    var e = document.getElementById(id);
    if (e) { e.tabIndex = -1; e.focus(); }
  }

  function setDecisionButtons(enabled) {
    var bs = $view.querySelectorAll('.actions button');
    for (var i = 0; i < bs.length; i++) bs[i].disabled = !enabled;
  }

  function tell(title, add, del, feedback, rejected) {
    var chain = Promise.resolve();
    if (!rejected && caps.updateModelContext) {
      chain = request('ui/update-model-context', { content: [{ type: 'text',
        text: 'The user applied ' + title + ' (+' + add + ' ' + MINUS + del + '): it is written.' }] })
        .catch(function () {});
    }
    var text = rejected
      ? 'I rejected ' + title + '; nothing was written.' + (feedback ? ' My feedback: ' + feedback : '')
      : feedback ? 'Applied ' + title + '. My feedback: ' + feedback : '';
    if (text && caps.message) {
      chain.then(function () {
        return request('ui/message', { role: 'user', content: [{ type: 'text', text: text }] });
      }).then(function (r) {
        if (r && r.isError) announce('The host did not pass your message on.');
      }, function () { announce('The host did not pass your message on.'); });
    }
  }

  function decide(decision) {
    var p = view.payload;
    if (view.busy || !p || p.state !== 'pending') return;
    var fb = document.getElementById('fb');
    var feedback = fb ? fb.value.trim() : '';
    var title = typeof p.title === 'string' && p.title ? p.title : 'the change';
    view.busy = true;
    setDecisionButtons(false);
    setOutcome('outcome', 'Sending your decision\u2026', 'info');
    var args = { review: p.review, token: p.token, decision: decision };
    if (feedback) args.feedback = feedback;
    request('tools/call', { name: 'review', arguments: args }, 120000).then(function (res) {
      if (view.payload !== p) return;
      view.busy = false;
      res = res && typeof res === 'object' ? res : {};
      var np = payloadOf(res);
      var sc = res.structuredContent && typeof res.structuredContent === 'object' ? res.structuredContent : {};
      var outcome = sc.outcome;
      if (res.isError) {
        setOutcome('outcome', textOf(res) || 'The decision failed: nothing was written.', 'err');
        announce('Error: ' + (textOf(res) || 'the decision failed'));
        focusOn('outcome');
        return;
      }
      if (!outcome && np) outcome = np.state === 'applied' ? 'applied' : np.state === 'pending' ? 'shown_again' : '';
      if (outcome === 'applied') {
        var q = np || p;
        var t = typeof q.title === 'string' && q.title ? q.title : title;
        var add = num(q.additions, 0), del = num(q.removals, 0);
        if (np) renderPayload(np, { focus: true });
        else setOutcome('outcome', 'Applied: written.' + (sc.summary ? ' ' + sc.summary : ''), 'ok');
        announce('Applied: ' + t + ' is written.');
        tell(t, add, del, feedback, false);
      } else if (outcome === 'rejected') {
        setOutcome('outcome', 'Rejected \u2014 nothing was written', 'info');
        var acts = $view.querySelectorAll('.actions > :not(.outcome)');
        for (var k = 0; k < acts.length; k++) acts[k].hidden = true;
        focusOn('outcome');
        var st = document.getElementById('state');
        if (st) { st.textContent = 'Rejected'; st.className = 'state st-other'; }
        var again = document.getElementById('again');
        if (again) again.hidden = true;
        announce('Rejected \u2014 nothing was written');
        tell(title, 0, 0, feedback, true);
      } else if (outcome === 'shown_again' && np) {
        renderPayload(np, { feedback: fb ? fb.value : '', focus: true });
      } else {
        setOutcome('outcome', textOf(res) || 'Unexpected answer from the server (' + String(outcome) + ').', 'err');
      }
    }, function (err) {
      if (view.payload !== p) return;
      view.busy = false;
      setDecisionButtons(true);
      setOutcome('outcome', 'Your decision did not reach the server (' + err.message + '). ' +
        'Nothing is confirmed; you can try again.', 'err');
      announce('Your decision did not reach the server.');
    });
  }

  function undo(i, btn) {
    var p = view.payload;
    var path = view.undo && view.undo[i];
    if (!path || btn.disabled) return;
    btn.disabled = true;
    setOutcome('undo-out', 'Undoing ' + shownPath(path) + '\u2026', 'info');
    request('tools/call', { name: 'undo', arguments: { file_path: path } }, 120000).then(function (res) {
      if (view.payload !== p) return;
      res = res && typeof res === 'object' ? res : {};
      if (payloadOf(res)) {
        renderPayload(payloadOf(res), { focus: true });
        return;
      }
      if (res.isError) btn.disabled = false;
      setOutcome('undo-out', textOf(res) || (res.isError ? 'The undo failed.' : 'Undone.'), res.isError ? 'err' : 'ok');
      announce(textOf(res) || 'Undone.');
    }, function (err) {
      if (view.payload !== p) return;
      btn.disabled = false;
      setOutcome('undo-out', 'The undo did not reach the server (' + err.message + ').', 'err');
    });
  }

  $view.addEventListener('click', function (ev) {
    var b = ev.target.closest && ev.target.closest('button[data-act]');
    if (!b || b.disabled) return;
    var act = b.getAttribute('data-act');
    if (act === 'apply' || act === 'apply_session' || act === 'reject') decide(act);
    else if (act === 'undo') undo(+b.getAttribute('data-i'), b);
    else if (act === 'more') showMore(+b.getAttribute('data-f'));
    else if (act === 'files') showMoreFiles();
    else if (act === 'mode') {
      var mode = b.getAttribute('data-mode');
      if (mode === view.mode) return;
      view.mode = mode;
      var bs = $view.querySelectorAll('button[data-act="mode"]');
      for (var i = 0; i < bs.length; i++) bs[i].setAttribute('aria-pressed', String(bs[i] === b));
      redrawDiff();
    }
  });

  /* ---- start ---- */

  if (parent === window) {
    setStatus('This page is the review view of mcp-edit: it runs inside an MCP Apps host.');
    return;
  }
  window.addEventListener('message', onMessage);
  request('ui/initialize', {
    appInfo: { name: 'mcp-edit review', version: '1' },
    appCapabilities: {},
    protocolVersion: PROTOCOL
  }, 20000).then(function (r) {
    r = r && typeof r === 'object' ? r : {};
    caps = r.hostCapabilities && typeof r.hostCapabilities === 'object' ? r.hostCapabilities : {};
    applyContext(r.hostContext);
    notify('ui/notifications/initialized', {});
    watchSize();
  }, function (err) {
    if (!view.payload) setStatus('The host did not answer (' + err.message + ').');
  });
})();
