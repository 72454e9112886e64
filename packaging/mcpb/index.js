// The Claude Desktop bundle's entry (server.type "node": Claude Desktop runs it with the Node it
// ships): starts this system's mcp-edit executable from the bundle. Claude Desktop on macOS
// extracts a bundle with every file at 0600 (modelcontextprotocol/mcpb#294), so a "binary" entry
// would fail with EACCES; here the executable is made runnable first (chmod 0755 when it is not),
// then run through run-native.js (stdio straight through, signals passed on, exit kept).
"use strict";
const fs = require("node:fs");
const path = require("node:path");
const { runNative } = require("./run-native.js");

const executables = {
  darwin: "darwin/mcp-edit",  // universal: arm64 and x86_64
  linux: "linux-x64/mcp-edit",
  win32: "win32-x64/mcp-edit.exe",
};
const relative = executables[process.platform];
if (!relative) {
  process.stderr.write(`mcp-edit: this bundle has no executable for ${process.platform}\n`);
  process.exit(1);
}
const binary = path.join(__dirname, relative);
if (process.platform !== "win32") {
  try {
    const mode = fs.statSync(binary).mode & 0o7777;
    if ((mode & 0o500) !== 0o500) fs.chmodSync(binary, mode | 0o755);
  } catch (error) {
    process.stderr.write(
      `mcp-edit: cannot make ${binary} executable (${error.message}); reinstall the extension, or run ` +
        `chmod 755 on that file\n`,
    );
    process.exit(1);
  }
}
runNative(binary, process.argv.slice(2));
