// Unit tests of text/encoding_labels: the labels people write for encodings, `.editorconfig`'s
// charsets, the declarations files carry (PEP 263, <?xml?>, <meta>), and line counting.
#include <doctest/doctest.h>

#include "text/bytes/encoding_labels.hpp"

using namespace text;

namespace {

std::string name_of(std::string_view label) {
    const auto info = find_encoding(label);
    return info ? std::string(info->name) : "(none)";
}

std::string declared(std::string_view bytes) {
    const auto d = find_declaration(bytes);
    return d ? d->label + " @ " + d->where : "(none)";
}

}  // namespace

TEST_CASE("encoding labels: the names people write map to one encoding each") {
    CHECK(name_of("latin-1") == "iso-8859-1");
    CHECK(name_of("Latin1") == "iso-8859-1");
    CHECK(name_of("ISO_8859-1") == "iso-8859-1");
    CHECK(name_of("iso-8859-15") == "iso-8859-15");
    CHECK(name_of("cp1252") == "windows-1252");
    CHECK(name_of("WINDOWS-1252") == "windows-1252");
    CHECK(name_of("utf8") == "utf-8");
    CHECK(name_of("UTF-8") == "utf-8");
    CHECK(name_of("utf-8-sig") == "utf-8");
    CHECK(name_of("GB2312") == "gbk");
    CHECK(name_of("cp936") == "gbk");
    CHECK(name_of("GB18030") == "gb18030");
    CHECK(name_of("SHIFT_JIS") == "shift_jis");
    CHECK(name_of("sjis") == "shift_jis");
    CHECK(name_of("Windows-31J") == "shift_jis");
    CHECK(name_of("EUC-JP") == "euc-jp");
    CHECK(name_of("UTF-16LE") == "utf-16le");
    CHECK(name_of("koi8-r") == "koi8-r");
    // Not converted: no name, so the caller falls back instead of guessing.
    CHECK(name_of("utf-32") == "(none)");
    CHECK(name_of("ebcdic-cp-us") == "(none)");
    CHECK(name_of("") == "(none)");
    CHECK(name_of("latin") == "(none)");
}

TEST_CASE("encoding labels: Shift_JIS is code page 932, whose 0x5C is a backslash") {
    // glibc's "SHIFT_JIS" reads 0x5C as YEN SIGN: every backslash of a source file would change.
    CHECK(find_encoding("shift_jis")->iconv_name == "CP932");
    CHECK(find_encoding("shift_jis")->windows_code_page == 932);
    CHECK(find_encoding("gbk")->windows_code_page == 936);
    CHECK(find_encoding("windows-1252")->windows_code_page == 1252);
    CHECK(find_encoding("latin1")->windows_code_page == 28591);
    CHECK(find_encoding("utf-16le")->windows_code_page == 1200);
    CHECK(find_encoding("utf-16be")->windows_code_page == 1201);
}

TEST_CASE("encoding labels: .editorconfig charset takes the spec's five values only") {
    CHECK(editorconfig_charset("latin1")->name == "iso-8859-1");
    CHECK(editorconfig_charset("utf-8")->name == "utf-8");
    CHECK(editorconfig_charset("utf-8-bom")->name == "utf-8");
    CHECK(editorconfig_charset("utf-16le")->name == "utf-16le");
    CHECK(editorconfig_charset("UTF-16BE")->name == "utf-16be");
    CHECK_FALSE(editorconfig_charset("gbk").has_value());
    CHECK_FALSE(editorconfig_charset("").has_value());
}

TEST_CASE("encoding declarations: PEP 263 in the first two lines, in a comment") {
    CHECK(declared("# -*- coding: latin-1 -*-\nx = 1\n") == "latin-1 @ coding: line 1");
    CHECK(declared("#!/usr/bin/env python\n# coding=cp1252\n") == "cp1252 @ coding: line 2");
    CHECK(declared("#!/usr/bin/env python\r\n# vim: set fileencoding=gbk :\r\n") == "gbk @ coding: line 2");
    CHECK(declared("# encoding: euc-jp\n") == "euc-jp @ coding: line 1");  // Ruby's magic comment
    CHECK(declared("/* -*- coding: iso-8859-15 -*- */\nint x;\n") == "iso-8859-15 @ coding: line 1");
    CHECK(declared("# This module is about latin-1 text.\n# coding: latin-1.\n") == "latin-1 @ coding: line 2");
    // The third line is too late; a string is not a comment; "coding" needs ':' or '='.
    CHECK(declared("#!/bin/sh\n\n# coding: latin-1\n") == "(none)");
    CHECK(declared("x = \"coding: latin-1\"\n") == "(none)");
    CHECK(declared("# coding is fun: latin-1\n") == "(none)");
    CHECK(declared("plain text\n") == "(none)");
    CHECK(declared("") == "(none)");
}

TEST_CASE("encoding declarations: <?xml encoding?> at the start, <meta charset> in the head") {
    CHECK(declared("<?xml version=\"1.0\" encoding=\"windows-1252\"?>\n<a/>\n") == "windows-1252 @ <?xml encoding?>");
    CHECK(declared("<?xml version='1.0' encoding='ISO-8859-1' standalone='yes'?><a/>") ==
          "ISO-8859-1 @ <?xml encoding?>");
    CHECK(declared("<?xml version=\"1.0\"?>\n<a encoding=\"gbk\"/>\n") == "(none)");  // past the declaration
    CHECK(declared("<!DOCTYPE html>\n<html><head><meta charset=\"Shift_JIS\">") == "Shift_JIS @ <meta charset>");
    CHECK(declared("<html><head><META HTTP-EQUIV=\"Content-Type\" CONTENT=\"text/html; charset=euc-kr\">") ==
          "euc-kr @ <meta charset>");
    CHECK(declared("<html><head><meta name=\"viewport\" content=\"width=device-width\">") == "(none)");
    CHECK(declared(std::string(1100, ' ') + "<meta charset=\"gbk\">") == "(none)");  // past the prescan's 1024 bytes
}

TEST_CASE("encoding labels: non-ASCII bytes counted, lines found as split_lines counts them") {
    CHECK(count_non_ascii("abc") == 0);
    CHECK(count_non_ascii("\xC3\xA9t\xC3\xA9") == 4);
    CHECK(line_of_offset("a\nb\nc", 0) == 1);
    CHECK(line_of_offset("a\nb\nc", 2) == 2);
    CHECK(line_of_offset("a\r\nb\r\nc", 6) == 3);
    CHECK(line_of_offset("a\rb\rc", 4) == 3);
    CHECK(line_of_offset("a\r\nb", 2) == 1);  // between CR and LF: still the first line
}
