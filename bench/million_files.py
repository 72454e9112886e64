# The million-file memory run of issue 25: the walk streams, so list, find and grep must not grow
# with the tree. Makes the tree (--make), then measures the real binary over stdio (bench/README.md).
#   python3 bench/million_files.py --make /tmp/million && python3 bench/million_files.py /tmp/million build/mcp-edit
# Each call: wall time and the server's peak RSS (VmHWM, reset before each call through clear_refs).
import json, os, subprocess, sys, time

def make(root, folders=1000, files=1000):
    """folders x files small files; every 10th a .c; one line with the rare word zyzzyvaRARE."""
    for d in range(folders):
        os.makedirs(f"{root}/d{d:03d}", exist_ok=True)
        for f in range(files):
            word = "zyzzyvaRARE" if (d, f) == (737, 421) else "common"
            fd = os.open(f"{root}/d{d:03d}/f{f:03d}.{'c' if f % 10 == 0 else 'txt'}", os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
            os.write(fd, f"line one of {d}/{f}\nsecond line {word}\n".encode())
            os.close(fd)

def run(root, binary, rounds=2):
    p = subprocess.Popen([binary, "--root", root, "--approval", "auto", "--log-level", "off"],
                         stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    def status(key):
        with open(f"/proc/{p.pid}/status") as s:
            return next(int(line.split()[1]) for line in s if line.startswith(key))
    def send(m):
        p.stdin.write(json.dumps(m) + "\n")
        p.stdin.flush()
        while "id" in m:
            r = json.loads(p.stdout.readline())
            if r.get("id") == m["id"]:
                return r
    send({"jsonrpc": "2.0", "id": 0, "method": "initialize",
          "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "million", "version": "1"}}})
    send({"jsonrpc": "2.0", "method": "notifications/initialized"})
    print(f"after initialize: VmHWM {status('VmHWM:')} KiB")
    calls = [("list", {"path": ".", "depth": 3}), ("find", {"pattern": "**/*.c"}), ("grep", {"pattern": "zyzzyvaRARE"})]
    n = 1
    for rnd in range(rounds):
        for name, args in calls:
            with open(f"/proc/{p.pid}/clear_refs", "w") as c:
                c.write("5")  # resets VmHWM to the RSS now
            t = time.monotonic()
            r = send({"jsonrpc": "2.0", "id": n, "method": "tools/call", "params": {"name": name, "arguments": args}})
            n += 1
            text = r.get("result", {}).get("content", [{}])[0].get("text", "")
            print(f"round {rnd} {name} {json.dumps(args)}: {time.monotonic() - t:.2f} s, VmHWM {status('VmHWM:')} KiB | "
                  f"{text.splitlines()[0][:120] if text else r}")
    p.stdin.close()
    p.wait()

if __name__ == "__main__":
    if sys.argv[1] == "--make":
        make(sys.argv[2])
    else:
        run(sys.argv[1], sys.argv[2] if len(sys.argv) > 2 else "build/mcp-edit")
