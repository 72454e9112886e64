// Files in other encodings through the tools (issue 42, part 2): GBK, Shift_JIS, cp1252, Latin-1
// and UTF-16 (with a BOM) are read as text, changed by edit, write, multiedit, apply_diff and
// insert, and written back in their own encoding, byte for byte what Python's codecs make of the
// changed text (the expected bytes below were made with Python, not with this program's
// converters); a character the encoding cannot hold is refused naming its line; undo puts back the
// exact bytes; a file no encoding fits stays raw bytes, as before.
#include <doctest/doctest.h>

#include <string>

#include "ledger/history.hpp"
#include "tests/unit/tools/fixture.hpp"

using namespace tools_test;

namespace {

// Each file before and after the change its case makes, as Python encodes the text:
// text.encode(codec) before and after text.replace(old_text, new_text).
// gbk
const std::string gbk_before = std::string(
    "# "
    "\323\303\273\247\327\312\301\317\265\304\264\246\300\355\272\257\312\375\243\254\261\243\264\346\303\373\327\326"
    "\272\315\265\330\326\267\ndef greet(name):\n    return \"\304\343\272\303\243\254\" + name + "
    "\"\243\241\273\266\323\255\273\330\300\264\"\n",
    96);
const std::string gbk_after = std::string(
    "# "
    "\323\303\273\247\327\312\301\317\265\304\264\246\300\355\272\257\312\375\243\254\261\243\264\346\303\373\327\326"
    "\272\315\265\330\326\267\ndef greet(name):\n    return \"\304\343\272\303\243\254\" + name + "
    "\"\243\241\272\334\270\337\320\313\274\373\265\275\304\343\"\n",
    100);
// sjis
const std::string sjis_before = std::string(
    "// "
    "\203\206\201[\203U\201["
    "\202\314\226\274\221O\202\306\217Z\217\212\202\360\225\333\221\266\202\267\202\351\212\326\220\224\202\305\202\267"
    "\nconst greeting = \"\202\261\202\361\202\311\202\277\202\315\201A\220\242\212E\201I\";\nconst path = "
    "\"C:\\\\temp\\\\\";\n",
    108);
const std::string sjis_after = std::string(
    "// "
    "\203\206\201[\203U\201["
    "\202\314\226\274\221O\202\306\217Z\217\212\202\360\225\333\221\266\202\267\202\351\212\326\220\224\202\305\202\267"
    "\nconst greeting = \"\202\261\202\361\202\311\202\277\202\315\201A\212F\202\263\202\361\201I\";\nconst path = "
    "\"C:\\\\temp\\\\\";\n",
    110);
// cp1252
const std::string cp1252_before = std::string(
    "# Gr\366\337en\344nderung f\374r Fenster \226 \204\334bersicht\223 \374ber alle Eintr\344ge\r\ntext = \"Caf\351 "
    "cr\350me br\373l\351e \340 la fran\347aise \227 d\351j\340 vu\"",
    114);
const std::string cp1252_after = std::string(
    "# Gr\366\337en\344nderung f\374r Fenster \226 \204\334bersicht\223 \374ber alle Eintr\344ge\r\ntext = \"Caf\351 "
    "cr\350me br\373l\351e \340 la fran\347aise \227 voil\340 \2005\"",
    115);
// latin1
const std::string latin1_before = std::string("# -*- coding: latin-1 -*-\nnom = \"\311lodie Fran\347oise\"\n", 51);
const std::string latin1_after = std::string("# -*- coding: latin-1 -*-\nnom = \"H\351l\350ne Fran\347oise\"\n", 51);
// utf16le
const std::string utf16le_before = std::string(
    "\377\376\rTMR \000=\000 \000\"\000\3060\2710\3100\"\000\r\000\n\000v\000a\000l\000u\000e\000 \000=\000 "
    "\0001\000\r\000\n\000",
    48);
const std::string utf16le_after = std::string(
    "\377\376\rTMR \000=\000 \000\"\000f\212\023\232\"\000\r\000\n\000v\000a\000l\000u\000e\000 \000=\000 "
    "\0001\000\r\000\n\000",
    46);
// utf16be
const std::string utf16be_before = std::string(
    "\376\377\000G\000r\000\374\000\337\000e\000\n\000z\000w\000e\000i\000t\000e\000 \000Z\000e\000i\000l\000e\000\n",
    40);
const std::string utf16be_after = std::string(
    "\376\377\000G\000r\000\366\000\337\000e\000\n\000z\000w\000e\000i\000t\000e\000 \000Z\000e\000i\000l\000e\000\n",
    40);
// gbk.py changed on disk meanwhile (its first line), and that change merged with the edit's;
// the GBK file, too short to detect; gbk.py with a line inserted after line 1.
const std::string gbk_theirs = std::string(
    "# \323\303\273\247\265\304\327\312\301\317\ndef greet(name):\n    return \"\304\343\272\303\243\254\" + name + "
    "\"\243\241\273\266\323\255\273\330\300\264\"\n",
    72);
const std::string gbk_merged = std::string(
    "# \323\303\273\247\265\304\327\312\301\317\ndef greet(name):\n    return \"\304\343\272\303\243\254\" + name + "
    "\"\243\241\272\334\270\337\320\313\274\373\265\275\304\343\"\n",
    76);
const std::string gbk_tiny = std::string("\303\373\327\326 = \"\325\305\310\375\"\n", 14);
const std::string gbk_inserted = std::string(
    "# "
    "\323\303\273\247\327\312\301\317\265\304\264\246\300\355\272\257\312\375\243\254\261\243\264\346\303\373\327\326"
    "\272\315\265\330\326\267\n# \320\302\265\304\322\273\320\320\ndef greet(name):\n    return "
    "\"\304\343\272\303\243\254\" + name + \"\243\241\273\266\323\255\273\330\300\264\"\n",
    107);
// the text after the change, as the model writes it (UTF-8, LF, no BOM)
const std::string gbk_after_text = std::string(
    "# "
    "\347\224\250\346\210\267\350\265\204\346\226\231\347\232\204\345\244\204\347\220\206\345\207\275\346\225\260\357"
    "\274\214\344\277\235\345\255\230\345\220\215\345\255\227\345\222\214\345\234\260\345\235\200\ndef greet(name):\n  "
    "  return \"\344\275\240\345\245\275\357\274\214\" + name + "
    "\"\357\274\201\345\276\210\351\253\230\345\205\264\350\247\201\345\210\260\344\275\240\"\n",
    127);
const std::string sjis_after_text = std::string(
    "// "
    "\343\203\246\343\203\274\343\202\266\343\203\274\343\201\256\345\220\215\345\211\215\343\201\250\344\275\217\346"
    "\211\200\343\202\222\344\277\235\345\255\230\343\201\231\343\202\213\351\226\242\346\225\260\343\201\247\343\201"
    "\231\nconst greeting = "
    "\"\343\201\223\343\202\223\343\201\253\343\201\241\343\201\257\343\200\201\347\232\206\343\201\225\343\202\223\357"
    "\274\201\";\nconst path = \"C:\\\\temp\\\\\";\n",
    139);
const std::string cp1252_after_text = std::string(
    "# Gr\303\266\303\237en\303\244nderung f\303\274r Fenster \342\200\223 \342\200\236\303\234bersicht\342\200\234 "
    "\303\274ber alle Eintr\303\244ge\ntext = \"Caf\303\251 cr\303\250me br\303\273l\303\251e \303\240 la "
    "fran\303\247aise \342\200\224 voil\303\240 \342\202\2545\"",
    138);
const std::string latin1_after_text =
    std::string("# -*- coding: latin-1 -*-\nnom = \"H\303\251l\303\250ne Fran\303\247oise\"\n", 54);
const std::string utf16le_after_text =
    std::string("\345\220\215\345\211\215 = \"\350\251\246\351\250\223\"\nvalue = 1\n", 28);
const std::string utf16be_after_text = std::string("Gr\303\266\303\237e\nzweite Zeile\n", 21);

struct EncodedFile {
    const char* name;  // the file's name in the workspace
    const std::string& before;
    const std::string& after;
    const std::string& after_text;  // the whole text after the change, as a model would write it
    const char* encoding;           // as read reports it
    const char* shown_line;         // a line of the text, as read shows it (UTF-8)
    const char* old_text;           // what the edit replaces ...
    const char* new_text;           // ... with what
};

const EncodedFile files[] = {
    {"gbk.py", gbk_before, gbk_after, gbk_after_text, "gbk", "return \"你好，\" + name + \"！欢迎回来\"", "欢迎回来",
     "很高兴见到你"},
    {"sjis.js", sjis_before, sjis_after, sjis_after_text, "shift_jis", "const greeting = \"こんにちは、世界！\";",
     "世界", "皆さん"},
    {"cp1252.py", cp1252_before, cp1252_after, cp1252_after_text, "windows-1252",
     "text = \"Café crème brûlée à la française — déjà vu\"", "déjà vu", "voilà €5"},
    {"latin1.py", latin1_before, latin1_after, latin1_after_text, "iso-8859-1", "nom = \"Élodie Françoise\"", "Élodie",
     "Hélène"},
    {"utf16le.txt", utf16le_before, utf16le_after, utf16le_after_text, "utf-16le", "名前 = \"テスト\"", "テスト",
     "試験"},
    {"utf16be.txt", utf16be_before, utf16be_after, utf16be_after_text, "utf-16be", "Grüße", "Grüße", "Größe"},
};

}  // namespace

TEST_CASE("encodings: each file reads as text, in its encoding, and says how that was decided") {
    for (const auto& file : files) {
        CAPTURE(file.name);
        Fixture f;
        f.put(file.name, file.before);
        const auto r = f.read(file.name);
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(has(r.text, file.shown_line));
        CHECK(r.structured["encoding"] == file.encoding);
        CHECK(r.structured.contains("encoding_decided_by"));
        CHECK(r.text.find("\xEF\xBF\xBD") == std::string::npos);  // no U+FFFD
    }
}

TEST_CASE("encodings: edit changes the text and writes the file back in its encoding, byte-exact") {
    for (const auto& file : files) {
        CAPTURE(file.name);
        Fixture f;
        f.put(file.name, file.before);
        const auto r =
            f.call(tools::edit_handler(),
                   {{"file_path", f.path(file.name)}, {"old_string", file.old_text}, {"new_string", file.new_text}});
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(f.get(file.name) == file.after);
        // The diff is shown in UTF-8.
        CHECK(has(r.structured["diff"].get<std::string>(), std::string("+")));
        CHECK(has(r.structured["diff"].get<std::string>(), file.new_text));
    }
}

TEST_CASE("encodings: write, multiedit, apply_diff and undo keep the file's encoding") {
    for (const auto& file : files) {
        CAPTURE(file.name);
        Fixture f;
        f.put(file.name, file.before);
        const auto read = f.read(file.name);
        REQUIRE_FALSE(read.is_error);
        SUBCASE("write of the whole changed text") {
            const auto r =
                f.call(tools::write_handler(), {{"file_path", f.path(file.name)}, {"content", file.after_text}});
            INFO(r.text);
            REQUIRE_FALSE(r.is_error);
            CHECK(f.get(file.name) == file.after);
        }
        SUBCASE("multiedit") {
            const auto r =
                f.call(tools::multiedit_handler(),
                       {{"file_path", f.path(file.name)},
                        {"edits", Json::array({{{"old_string", file.old_text}, {"new_string", file.new_text}}})}});
            INFO(r.text);
            REQUIRE_FALSE(r.is_error);
            CHECK(f.get(file.name) == file.after);
        }
        SUBCASE("apply_diff, search/replace") {
            const std::string diff = std::string("<<<<<<< SEARCH\n") + file.shown_line + "\n=======\n" + [&] {
                std::string line = file.shown_line;
                line.replace(line.find(file.old_text), std::string(file.old_text).size(), file.new_text);
                return line;
            }() + "\n>>>>>>> REPLACE\n";
            const auto r = f.call(tools::apply_diff_handler(), {{"file_path", f.path(file.name)}, {"diff", diff}});
            INFO(r.text);
            REQUIRE_FALSE(r.is_error);
            CHECK(f.get(file.name) == file.after);
        }
        SUBCASE("undo puts back the bytes that were there") {
            ledger::History history;
            f.ctx.history = &history;
            const auto r = f.call(
                tools::edit_handler(),
                {{"file_path", f.path(file.name)}, {"old_string", file.old_text}, {"new_string", file.new_text}});
            REQUIRE_FALSE(r.is_error);
            REQUIRE(f.get(file.name) == file.after);
            const auto undone = f.call(tools::undo_handler(), {{"file_path", f.path(file.name)}});
            INFO(undone.text);
            REQUIRE_FALSE(undone.is_error);
            CHECK(f.get(file.name) == file.before);
            // Its diff is shown as text too.
            CHECK(has(undone.structured["diff"].get<std::string>(), file.old_text));
        }
    }
}

TEST_CASE("encodings: a character the file's encoding cannot hold is refused, naming it and its line") {
    struct Case {
        const char* name;
        const std::string& before;
        const char* old_text;
        const char* new_text;
        const char* said;
    };
    const Case cases[] = {
        {"gbk.py", gbk_before, "欢迎回来", "欢迎😀", "line 3: '😀' (U+1F600) cannot be written in gbk"},
        {"latin1.py", latin1_before, "Élodie", "€lodie", "line 2: '€' (U+20AC) cannot be written in iso-8859-1"},
        {"sjis.js", sjis_before, "世界", "세계", "line 2: '세' (U+C138) cannot be written in shift_jis"},
    };
    for (const auto& c : cases) {
        for (const bool dry_run : {true, false}) {
            CAPTURE(c.name);
            CAPTURE(dry_run);
            Fixture f;
            f.put(c.name, c.before);
            const auto r = f.call(tools::edit_handler(), {{"file_path", f.path(c.name)},
                                                          {"old_string", c.old_text},
                                                          {"new_string", c.new_text},
                                                          {"dry_run", dry_run}});
            INFO(r.text);
            CHECK(r.is_error);
            CHECK(r.reason == base::ErrorReason::invalid_arguments);
            CHECK(has(r.text, c.said));
            CHECK(has(r.text, "Nothing was written"));
            CHECK(f.get(c.name) == c.before);
        }
    }
}

TEST_CASE("encodings: insert, and a change merged with one made on disk meanwhile, stay in the file's encoding") {
    SUBCASE("insert after line 1") {
        Fixture f;
        f.put("gbk.py", gbk_before);
        REQUIRE_FALSE(f.read("gbk.py").is_error);
        const auto r = f.insert("gbk.py", 1, "# 新的一行");
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(f.get("gbk.py") == gbk_inserted);
    }
    SUBCASE("the file changed while the human looked: merged as text, written as GBK") {
        Fixture f;
        f.put("gbk.py", gbk_before);
        int asked = 0;
        std::string second_diff;
        f.ctx.approve = [&](const tools::ApprovalRequest& ask) -> asio::awaitable<tools::ApprovalDecision> {
            if (++asked == 1)
                f.put("gbk.py", gbk_theirs);  // another editor saves meanwhile
            else
                second_diff = ask.diff;
            tools::ApprovalDecision d;
            d.kind = tools::ApprovalDecision::Kind::approved;
            d.approval = tools::ApprovalSource::user;
            co_return d;
        };
        const auto r =
            f.call(tools::edit_handler(),
                   {{"file_path", f.path("gbk.py")}, {"old_string", "欢迎回来"}, {"new_string", "很高兴见到你"}});
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(asked == 2);
        CHECK(has(second_diff, "+    return \"你好，\" + name + \"！很高兴见到你\""));
        CHECK(f.get("gbk.py") == gbk_merged);
    }
    SUBCASE("write over a file changed since it was read: merged as text") {
        Fixture f;
        f.put("gbk.py", gbk_before);
        REQUIRE_FALSE(f.read("gbk.py").is_error);
        f.put("gbk.py", gbk_theirs);
        const auto r = f.call(tools::write_handler(), {{"file_path", f.path("gbk.py")}, {"content", gbk_after_text}});
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(f.get("gbk.py") == gbk_merged);
    }
}

TEST_CASE("encodings: an elision marker over the lines of a GBK file is refused as in a UTF-8 one") {
    Fixture f;
    f.put("gbk.py", gbk_before);
    REQUIRE_FALSE(f.read("gbk.py").is_error);
    const auto r = f.call(
        tools::write_handler(),
        {{"file_path", f.path("gbk.py")},
         {"content", "# 用户资料的处理函数，保存名字和地址\n# ... 其余代码不变 (rest of the code unchanged) ...\n"}});
    INFO(r.text);
    CHECK(r.is_error);
    CHECK(has(r.text, "is an elision marker"));
    CHECK(has(r.text, "`def greet(name):`"));
    CHECK(f.get("gbk.py") == gbk_before);
}

TEST_CASE("encodings: what no encoding fits, or what cannot be told, stays as before") {
    SUBCASE("the issue's GBK line, named by the model: read as GBK from then on, edits written in it") {
        Fixture f;
        f.put("tiny.py", gbk_tiny);
        const auto raw = f.read("tiny.py");
        CHECK(has(raw.structured["encoding_note"].get<std::string>(),
                  "If you know the file's encoding, read it again with encoding"));
        const auto unknown = f.call(tools::read_handler(), {{"file_path", f.path("tiny.py")}, {"encoding", "klingon"}});
        CHECK(unknown.is_error);
        CHECK(has(unknown.text, "encoding 'klingon' is not one this server converts"));
        for (const char* wrong : {"us-ascii", "utf-16be"}) {
            const auto misfit = f.call(tools::read_handler(), {{"file_path", f.path("tiny.py")}, {"encoding", wrong}});
            INFO(misfit.text);
            CHECK(misfit.is_error);
            CHECK(has(misfit.text, std::string("tiny.py cannot be read as ") + wrong));
        }
        const auto named = f.call(tools::read_handler(), {{"file_path", f.path("tiny.py")}, {"encoding", "GB2312"}});
        INFO(named.text);
        REQUIRE_FALSE(named.is_error);
        CHECK(named.structured["encoding"] == "gbk");
        CHECK(named.structured["encoding_decided_by"] == "gbk (requested)");
        CHECK(has(named.text, "名字 = \"张三\""));
        const auto e = f.call(tools::edit_handler(),
                              {{"file_path", f.path("tiny.py")}, {"old_string", "张三"}, {"new_string", "李四"}});
        INFO(e.text);
        REQUIRE_FALSE(e.is_error);
        CHECK(f.get("tiny.py") == std::string("\303\373\327\326 = \"\300\356\313\304\"\n"));
        CHECK(f.read("tiny.py").structured["encoding"] == "gbk");  // remembered
    }
    SUBCASE("the issue's two-line GBK file: too few bytes to tell, shown raw, with why") {
        Fixture f;
        f.put("tiny.py", gbk_tiny);
        const auto r = f.read("tiny.py");
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        CHECK(r.structured["encoding"] == "unknown-8bit");
        CHECK(has(r.structured["encoding_note"].get<std::string>(), "8 non-ASCII bytes are too few"));
        // An edit of its ASCII still works on the raw bytes, and keeps the others.
        const auto e = f.call(tools::edit_handler(),
                              {{"file_path", f.path("tiny.py")}, {"old_string", " = "}, {"new_string", " =  "}});
        REQUIRE_FALSE(e.is_error);
        CHECK(f.get("tiny.py") == std::string("\303\373\327\326 =  \"\325\305\310\375\"\n"));
    }
    SUBCASE("UTF-32 is refused by its BOM") {
        Fixture f;
        f.put("u32.txt", std::string("\xFF\xFE\0\0a\0\0\0\n\0\0\0", 12));
        const auto r = f.read("u32.txt");
        CHECK(r.is_error);
        CHECK(r.reason == base::ErrorReason::not_text);
        CHECK(has(r.text, "utf-32le text (by its byte-order mark), and UTF-32 files are not supported"));
    }
    SUBCASE("UTF-16 without a BOM looks binary, as before") {
        Fixture f;
        f.put("u16.txt", std::string("a\0b\0\n\0", 6));
        const auto r = f.read("u16.txt");
        CHECK(r.is_error);
        CHECK(has(r.text, "looks binary"));
    }
    SUBCASE("a UTF-16 BOM over bytes that are not UTF-16 is refused, saying why") {
        Fixture f;
        f.put("odd.txt", std::string("\xFF\xFE"
                                     "a\0b",
                                     5));  // an odd number of bytes
        const auto r = f.read("odd.txt");
        INFO(r.text);
        CHECK(r.is_error);
        CHECK(has(r.text, "utf-16le text (by its byte-order mark)"));
    }
}

TEST_CASE("encodings: delete shows a UTF-16 or GBK file's text, and needs it read like any text file") {
    for (const auto* file : {&files[0], &files[4]}) {
        CAPTURE(file->name);
        Fixture f;
        f.put(file->name, file->before);
        // Read shows it as text: so, as for any text file, it must be read before it is deleted.
        const auto unseen = f.call(tools::delete_handler(), {{"file_path", f.path(file->name)}});
        INFO(unseen.text);
        CHECK(unseen.is_error);
        CHECK(unseen.reason == base::ErrorReason::not_read);
        REQUIRE_FALSE(f.read(file->name).is_error);
        const auto r = f.call(tools::delete_handler(), {{"file_path", f.path(file->name)}});
        INFO(r.text);
        REQUIRE_FALSE(r.is_error);
        const std::string diff = r.structured["diff"].get<std::string>();
        CHECK(has(diff, file->shown_line));
        CHECK_FALSE(has(diff, "\xEF\xBF\xBD"));  // no U+FFFD: the text, not its bytes
        CHECK_FALSE(fs::exists(f.root / file->name));
    }
}
