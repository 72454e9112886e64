// The encoded files the encoding tests share (tests/unit/tools/encodings.cpp, grep_encodings.cpp):
// GBK, Shift_JIS, cp1252, Latin-1, UTF-16 LE and BE, before and after one change, as Python's codecs
// encode the text (made with Python, not with this program's converters).
#pragma once

#include <string>

namespace encoded_files {

// Each file before and after the change its case makes, as Python encodes the text:
// text.encode(codec) before and after text.replace(old_text, new_text).
// gbk
inline const std::string gbk_before = std::string(
    "# "
    "\323\303\273\247\327\312\301\317\265\304\264\246\300\355\272\257\312\375\243\254\261\243\264\346\303\373\327\326"
    "\272\315\265\330\326\267\ndef greet(name):\n    return \"\304\343\272\303\243\254\" + name + "
    "\"\243\241\273\266\323\255\273\330\300\264\"\n",
    96);
inline const std::string gbk_after = std::string(
    "# "
    "\323\303\273\247\327\312\301\317\265\304\264\246\300\355\272\257\312\375\243\254\261\243\264\346\303\373\327\326"
    "\272\315\265\330\326\267\ndef greet(name):\n    return \"\304\343\272\303\243\254\" + name + "
    "\"\243\241\272\334\270\337\320\313\274\373\265\275\304\343\"\n",
    100);
// sjis
inline const std::string sjis_before = std::string(
    "// "
    "\203\206\201[\203U\201["
    "\202\314\226\274\221O\202\306\217Z\217\212\202\360\225\333\221\266\202\267\202\351\212\326\220\224\202\305\202\267"
    "\nconst greeting = \"\202\261\202\361\202\311\202\277\202\315\201A\220\242\212E\201I\";\nconst path = "
    "\"C:\\\\temp\\\\\";\n",
    108);
inline const std::string sjis_after = std::string(
    "// "
    "\203\206\201[\203U\201["
    "\202\314\226\274\221O\202\306\217Z\217\212\202\360\225\333\221\266\202\267\202\351\212\326\220\224\202\305\202\267"
    "\nconst greeting = \"\202\261\202\361\202\311\202\277\202\315\201A\212F\202\263\202\361\201I\";\nconst path = "
    "\"C:\\\\temp\\\\\";\n",
    110);
// cp1252
inline const std::string cp1252_before = std::string(
    "# Gr\366\337en\344nderung f\374r Fenster \226 \204\334bersicht\223 \374ber alle Eintr\344ge\r\ntext = \"Caf\351 "
    "cr\350me br\373l\351e \340 la fran\347aise \227 d\351j\340 vu\"",
    114);
inline const std::string cp1252_after = std::string(
    "# Gr\366\337en\344nderung f\374r Fenster \226 \204\334bersicht\223 \374ber alle Eintr\344ge\r\ntext = \"Caf\351 "
    "cr\350me br\373l\351e \340 la fran\347aise \227 voil\340 \2005\"",
    115);
// latin1
inline const std::string latin1_before =
    std::string("# -*- coding: latin-1 -*-\nnom = \"\311lodie Fran\347oise\"\n", 51);
inline const std::string latin1_after =
    std::string("# -*- coding: latin-1 -*-\nnom = \"H\351l\350ne Fran\347oise\"\n", 51);
// utf16le
inline const std::string utf16le_before = std::string(
    "\377\376\rTMR \000=\000 \000\"\000\3060\2710\3100\"\000\r\000\n\000v\000a\000l\000u\000e\000 \000=\000 "
    "\0001\000\r\000\n\000",
    48);
inline const std::string utf16le_after = std::string(
    "\377\376\rTMR \000=\000 \000\"\000f\212\023\232\"\000\r\000\n\000v\000a\000l\000u\000e\000 \000=\000 "
    "\0001\000\r\000\n\000",
    46);
// utf16be
inline const std::string utf16be_before = std::string(
    "\376\377\000G\000r\000\374\000\337\000e\000\n\000z\000w\000e\000i\000t\000e\000 \000Z\000e\000i\000l\000e\000\n",
    40);
inline const std::string utf16be_after = std::string(
    "\376\377\000G\000r\000\366\000\337\000e\000\n\000z\000w\000e\000i\000t\000e\000 \000Z\000e\000i\000l\000e\000\n",
    40);
// gbk.py changed on disk meanwhile (its first line), and that change merged with the edit's;
// the GBK file, too short to detect; gbk.py with a line inserted after line 1.
inline const std::string gbk_theirs = std::string(
    "# \323\303\273\247\265\304\327\312\301\317\ndef greet(name):\n    return \"\304\343\272\303\243\254\" + name + "
    "\"\243\241\273\266\323\255\273\330\300\264\"\n",
    72);
inline const std::string gbk_merged = std::string(
    "# \323\303\273\247\265\304\327\312\301\317\ndef greet(name):\n    return \"\304\343\272\303\243\254\" + name + "
    "\"\243\241\272\334\270\337\320\313\274\373\265\275\304\343\"\n",
    76);
inline const std::string gbk_tiny = std::string("\303\373\327\326 = \"\325\305\310\375\"\n", 14);
inline const std::string gbk_inserted = std::string(
    "# "
    "\323\303\273\247\327\312\301\317\265\304\264\246\300\355\272\257\312\375\243\254\261\243\264\346\303\373\327\326"
    "\272\315\265\330\326\267\n# \320\302\265\304\322\273\320\320\ndef greet(name):\n    return "
    "\"\304\343\272\303\243\254\" + name + \"\243\241\273\266\323\255\273\330\300\264\"\n",
    107);
// the text after the change, as the model writes it (UTF-8, LF, no BOM)
inline const std::string gbk_after_text = std::string(
    "# "
    "\347\224\250\346\210\267\350\265\204\346\226\231\347\232\204\345\244\204\347\220\206\345\207\275\346\225\260\357"
    "\274\214\344\277\235\345\255\230\345\220\215\345\255\227\345\222\214\345\234\260\345\235\200\ndef greet(name):\n  "
    "  return \"\344\275\240\345\245\275\357\274\214\" + name + "
    "\"\357\274\201\345\276\210\351\253\230\345\205\264\350\247\201\345\210\260\344\275\240\"\n",
    127);
inline const std::string sjis_after_text = std::string(
    "// "
    "\343\203\246\343\203\274\343\202\266\343\203\274\343\201\256\345\220\215\345\211\215\343\201\250\344\275\217\346"
    "\211\200\343\202\222\344\277\235\345\255\230\343\201\231\343\202\213\351\226\242\346\225\260\343\201\247\343\201"
    "\231\nconst greeting = "
    "\"\343\201\223\343\202\223\343\201\253\343\201\241\343\201\257\343\200\201\347\232\206\343\201\225\343\202\223\357"
    "\274\201\";\nconst path = \"C:\\\\temp\\\\\";\n",
    139);
inline const std::string cp1252_after_text = std::string(
    "# Gr\303\266\303\237en\303\244nderung f\303\274r Fenster \342\200\223 \342\200\236\303\234bersicht\342\200\234 "
    "\303\274ber alle Eintr\303\244ge\ntext = \"Caf\303\251 cr\303\250me br\303\273l\303\251e \303\240 la "
    "fran\303\247aise \342\200\224 voil\303\240 \342\202\2545\"",
    138);
inline const std::string latin1_after_text =
    std::string("# -*- coding: latin-1 -*-\nnom = \"H\303\251l\303\250ne Fran\303\247oise\"\n", 54);
inline const std::string utf16le_after_text =
    std::string("\345\220\215\345\211\215 = \"\350\251\246\351\250\223\"\nvalue = 1\n", 28);
inline const std::string utf16be_after_text = std::string("Gr\303\266\303\237e\nzweite Zeile\n", 21);

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

inline const EncodedFile files[] = {
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

}  // namespace encoded_files
