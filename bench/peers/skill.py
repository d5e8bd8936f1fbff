"""One skill call the way the agents' own scripts make it (seed 000: src/skills/*.py):
load config.json and take the next change ID, load the statement, back it up under
history/<l-id>/, change it, write it with json.dump(indent=4) in place, append the log
line. No lock, no fsync, no rename: that is how their tools write.

Usage:
  python3 skill.py check-reject-proof --contents DIR --statement-id ID --sentence-number N
      --sentence-text T --error-type E --explanation X --suggested-fix F
  python3 skill.py fix-patch-proof --contents DIR --statement-id ID --issue-number N
      --updated-proof P --change-description D
Prints one JSON line: the change, and the seconds the work took after the imports.
"""
import argparse
import json
import os
import re
import shutil
import sys
import time

ID_RE = re.compile(r"^([psel])-([a-z]*)(\d{3})$")


def next_id(last):
    kind, letters, num = ID_RE.match(last).groups()
    if int(num) < 999:
        return "%s-%s%03d" % (kind, letters, int(num) + 1)
    chars = list(letters)
    i = len(chars) - 1
    while i >= 0 and chars[i] == "z":
        chars[i] = "a"
        i -= 1
    if i < 0:
        chars.insert(0, "a")
    else:
        chars[i] = chr(ord(chars[i]) + 1)
    return "%s-%s001" % (kind, "".join(chars))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("skill", choices=["check-reject-proof", "fix-patch-proof"])
    ap.add_argument("--contents", required=True)
    ap.add_argument("--statement-id", required=True)
    ap.add_argument("--sentence-number", type=int)
    ap.add_argument("--sentence-text")
    ap.add_argument("--error-type")
    ap.add_argument("--explanation")
    ap.add_argument("--suggested-fix")
    ap.add_argument("--issue-number", type=int)
    ap.add_argument("--updated-proof")
    ap.add_argument("--change-description")
    args = ap.parse_args()
    start = time.perf_counter()

    root = args.contents
    with open(os.path.join(root, "config.json")) as f:
        config = json.load(f)
    lid = next_id(config["l"])
    config["l"] = lid
    with open(os.path.join(root, "config.json"), "w") as f:
        json.dump(config, f, indent=4)

    sid = args.statement_id
    path = os.path.join(root, "statement", sid + ".json")
    with open(path) as f:
        st = json.load(f)
    os.makedirs(os.path.join(root, "history", lid))
    shutil.copyfile(path, os.path.join(root, "history", lid, sid + ".json"))

    validation = st["validation"]
    if args.skill == "check-reject-proof":
        if st["status"] != "awaiting_verification":
            sys.exit("%s is %s; it needs a submitted proof" % (sid, st["status"]))
        n = len(validation["issues"]) + 1
        validation["issues"].append("[Issue #%d] Sentence %d: '%s' | Type: %s | Explanation: %s | Fix: %s" % (
            n, args.sentence_number, args.sentence_text.strip(), args.error_type,
            args.explanation.strip(), args.suggested_fix.strip()))
        st["status"] = "has_gap"
    else:
        if st["status"] != "has_gap":
            sys.exit("%s is %s; it needs an open issue" % (sid, st["status"]))
        n = len(validation["responses"]) + 1
        st["proof"]["full"] = args.updated_proof
        validation["responses"].append("[Response #%d] Fixes Issue #%d | Type: patch | Change: %s" % (
            n, args.issue_number, args.change_description.strip()))
        st["status"] = "awaiting_verification"
    with open(path, "w") as f:
        json.dump(st, f, indent=4)

    line = {lid: {"creation": [], "modification": [sid]},
            "current": [config["p"], config["s"], config["e"]]}
    with open(os.path.join(root, "history", "log.jsonl"), "a") as f:
        f.write(json.dumps(line) + "\n")
    print(json.dumps({"change": lid, "seconds": time.perf_counter() - start}))


main()
