#!/usr/bin/env node
// The `mcp-edit` command of the npm package: runs the native executable of this platform, which npm
// installed from one of the optional packages mcp-edit-<os>-<cpu> (no download, no install script),
// through run-native.js (signals passed on, the server's exit kept).
"use strict";
const path = require("node:path");
const { hasGlibc, runNative } = require("./run-native.js");

const supported = ["darwin-arm64", "darwin-x64", "linux-x64", "win32-x64"];
const platform = `${process.platform}-${process.arch}`;
const pkg = `mcp-edit-${platform}`;
const exe = process.platform === "win32" ? "mcp-edit.exe" : "mcp-edit";

let binary;
try {
  binary = path.join(path.dirname(require.resolve(`${pkg}/package.json`)), "bin", exe);
} catch {
  process.stderr.write(
    supported.includes(platform)
      ? `mcp-edit: the package ${pkg}, which holds the executable for ${platform}, is not installed: ` +
          (process.platform === "linux" && !hasGlibc()
            ? "it needs glibc 2.34 or later (Debian 12, Ubuntu 22.04, RHEL 9 and later), and this system has none " +
              "(musl, e.g. Alpine); use a glibc-based system or image\n"
            : "reinstall without --no-optional / --omit=optional (e.g. npx -y mcp-edit@latest)\n")
      : `mcp-edit: no executable for ${platform}; there are packages for ${supported.join(", ")}\n`,
  );
  process.exit(1);
}
runNative(binary, process.argv.slice(2));
