"""The agents' way to read a contents folder: json.load every object file, then the
config and every line of the change log (what their status tool does before it counts).

Usage: python3 load.py CONTENTS
Prints one JSON line: the seconds the load took (interpreter start excluded), the objects
and log lines read, and the process's peak RSS in KiB.
"""
import json
import os
import resource
import sys
import time


def load(root):
    objects = {}
    for sub in ("problem", "statement", "experience"):
        folder = os.path.join(root, sub)
        if not os.path.isdir(folder):
            continue
        for name in sorted(os.listdir(folder)):
            if not name.endswith(".json"):
                continue
            with open(os.path.join(folder, name), encoding="utf-8") as f:
                objects[name[:-5]] = json.load(f)
    with open(os.path.join(root, "config.json"), encoding="utf-8") as f:
        config = json.load(f)
    log = []
    with open(os.path.join(root, "history", "log.jsonl"), encoding="utf-8") as f:
        for line in f:
            if line.strip():
                log.append(json.loads(line))
    counts = {}
    for obj in objects.values():
        counts[obj.get("status")] = counts.get(obj.get("status"), 0) + 1
    return objects, config, log, counts


def peak_rss_kib():
    # VmHWM is this program's own peak; ru_maxrss also counts the parent that forked it.
    try:
        with open("/proc/self/status") as f:
            for line in f:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss


start = time.perf_counter()
objects, config, log, counts = load(sys.argv[1])
seconds = time.perf_counter() - start
print(json.dumps({"seconds": seconds, "objects": len(objects), "log": len(log), "maxrss_kib": peak_rss_kib()}))
