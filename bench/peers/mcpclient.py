#!/usr/bin/env python3
"""A bare MCP client over stdio: what an agent's own client pays, without the Go SDK.

Starts `BINARY mcp --contents DIR`, does the handshake, then calls each read tool CALLS
times in a row (each call waits for its answer, after one call off the clock) and prints,
per tool, the answer's size, p50, p99 and max of the round trip (request line written →
answer line read and decoded with json.loads; p50, p99, max and mean), and the CPU per call of the server process
(from /proc) and of this client; then the server's resident memory, now and at its peak.

    python3 bench/peers/mcpclient.py BINARY DIR [CALLS] [TOOL...]

With SPREAD=N in the environment, show and sentences ask for N statements in turn (from
the middle of the folder on) instead of one: an answer the server kept is not asked again
before N other calls.
"""
import json
import os
import subprocess
import sys
import time


def cpu_of(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def main():
    binary, folder = sys.argv[1], sys.argv[2]
    calls = int(sys.argv[3]) if len(sys.argv) > 3 else 2000
    tools = sys.argv[4:] or ["show", "sentences", "status", "log"]
    names = sorted(os.listdir(os.path.join(folder, "statement")))
    sid = names[len(names) // 2][: -len(".json")]
    with open(os.path.join(folder, "config.json")) as f:
        since = f.read().split('"l": "', 1)[1].split('"', 1)[0]
    spread = int(os.environ.get("SPREAD", "1"))
    sids = [n[: -len(".json")] for n in names[len(names) // 2:][:spread]]
    args = {"show": [{"id": i} for i in sids], "sentences": [{"statement_id": i} for i in sids],
            "status": [{}], "log": [{"since": since}]}

    p = subprocess.Popen([binary, "mcp", "--contents", folder], stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    next_id = [0]

    def call(method, params):
        next_id[0] += 1
        p.stdin.write(json.dumps({"jsonrpc": "2.0", "id": next_id[0], "method": method, "params": params}).encode() + b"\n")
        p.stdin.flush()
        line = p.stdout.readline()
        msg = json.loads(line)
        if "error" in msg or msg["result"].get("isError"):
            sys.exit(f"{method}: {line[:300]!r}")
        return line, msg

    call("initialize", {"protocolVersion": "2025-06-18", "capabilities": {},
                        "clientInfo": {"name": "bench", "version": "0"}})
    p.stdin.write(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')
    p.stdin.flush()
    print(f"{'tool':<10} {'answer':>9} {'p50':>9} {'p99':>9} {'max':>9} {'mean':>9} {'server CPU':>11} {'client CPU':>11}  ({calls} calls each, over {spread} statements)")
    for tool in tools:
        calls_of = [{"name": tool, "arguments": a} for a in args[tool]]
        line, _ = call("tools/call", calls_of[0])  # the first waits for the folder
        s0, c0 = cpu_of(p.pid), time.process_time()
        times = []
        for i in range(calls):
            params = calls_of[i % len(calls_of)]
            t0 = time.perf_counter()
            call("tools/call", params)
            times.append(time.perf_counter() - t0)
        s1, c1 = cpu_of(p.pid), time.process_time()
        times.sort()
        ms = lambda x: f"{x * 1000:.2f} ms"
        print(f"{tool:<10} {len(line):>7} B {ms(times[len(times) // 2]):>9} {ms(times[int(len(times) * 0.99)]):>9} "
              f"{ms(times[-1]):>9} {ms(sum(times) / calls):>9} {ms((s1 - s0) / calls):>11} {ms((c1 - c0) / calls):>11}")
    with open(f"/proc/{p.pid}/status") as f:
        mem = {k: v.strip() for k, v in (l.split(":", 1) for l in f if l.startswith(("VmRSS", "VmHWM")))}
    print(f"server memory: {mem.get('VmRSS')} resident, {mem.get('VmHWM')} at the peak")
    p.stdin.close()
    p.wait()


if __name__ == "__main__":
    main()
