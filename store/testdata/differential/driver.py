#!/usr/bin/env python3
"""The scripts' side of store's differential test (differential_test.go).

usage: python3 driver.py ROOT     (ROOT holds src/, a copy of the agents' scripts, and contents/)

Reads one JSON request a line on stdin and answers one JSON line on stdout:
  {"op": "init", "hypothesis": [...], "objectives": [...]}   prob_init.py
  {"op": "call", "skill": NAME, "params": {...}}              the script commands the skill's
                                                              SKILL.md at d8d7638 prescribes
  {"op": "current"}                                           current.py's output
The commands are those of ../shared/fixtures/mra-conformance/make.py. The scripts run in
this one process (compiled once, their singletons reset before each run), so a call costs
milliseconds, not a Python start. None of the agents' code is here: ROOT/src is theirs.
"""
import contextlib
import io
import json
import os
import re
import sys

ROOT = os.path.abspath(sys.argv[1])
os.chdir(ROOT)
sys.path.insert(0, os.path.join(ROOT, "src"))
sys.dont_write_bytecode = True

STRATEGY_WORDS = {"direct": "Direct", "contradiction": "Contradiction", "case_analysis": "Case analysis",
                  "backward": "Backward"}
STEP = re.compile(r"(?m)^[ \t]*Step[ \t]+\d+[ \t]*:")


CODE = {}  # each script compiled once


class ScriptFailed(Exception):
    pass


def run(argv):
    """One script run, as `python3 src/X.py ARGV...` would do it; its stdout."""
    import utils
    for name in ("IDManager", "LogManager"):
        cls = getattr(utils, name, None)
        if cls is not None:
            cls._instance, cls._initialized = None, False
    out = io.StringIO()
    old = sys.argv
    sys.argv = [os.path.join("src", argv[0])] + argv[1:]
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(out):
            path = os.path.join(ROOT, "src", argv[0])
            if path not in CODE:
                with open(path, "rb") as f:
                    CODE[path] = compile(f.read(), path, "exec")
            exec(CODE[path], {"__name__": "__main__", "__file__": path, "__builtins__": __builtins__})
    except SystemExit as e:
        if e.code not in (None, 0):
            raise ScriptFailed("%s exited %r: %s" % (argv[0], e.code, out.getvalue()))
    finally:
        sys.argv = old
    return out.getvalue().strip()


def load(oid):
    folder = {"p": "problem", "s": "statement"}[oid[0]]
    with open(os.path.join(ROOT, "contents", folder, oid + ".json")) as f:
        return json.load(f)


def created(out, kind):
    m = re.search(r"Created (?:statement|problem): (%s-[a-z]*\d+)" % kind, out)
    if not m:
        raise ScriptFailed("no ID in the script's output: %r" % out)
    return m.group(1)


def modification_text(p):
    parts = []
    if p.get("suggested_claim"):
        parts.append("Claim: " + p["suggested_claim"])
    if p.get("suggested_premises"):
        parts.append("Premises: " + "; ".join(p["suggested_premises"]))
    return "; ".join(parts) if parts else "No new wording given"


def apply_call(skill, p):
    S, P = "state.py", "prob.py"
    if skill == "prob-wrapup-statement":
        argv = [S, "--type", "normal", "--conclusion"] + p["claim"]
        if p.get("premises"):
            argv += ["--hypothesis", "Overwrite"] + p["premises"]
        sid = created(run(argv), "s")
        run([P, "--id", p["problem_id"], "--progresses", "Append", "(%s) %s" % (sid, "; ".join(p["claim"]))])
    elif skill == "state-complete-proof":
        note = "PROOF: %s proof" % STRATEGY_WORDS[p["strategy"]]
        n = len(STEP.findall(p["proof_text"]))
        if n:
            note += " with %d steps" % n
        if p.get("summary"):
            note += " " + p["summary"]
        argv = [S, "--id", p["statement_id"], "--status", "validating", "--proof.full", p["proof_text"]]
        if p.get("proof_cot"):
            argv += ["--proof.cot", "Overwrite"] + p["proof_cot"]
        if p.get("proof_ref"):
            argv += ["--proof.ref", "Overwrite"] + p["proof_ref"]
        run(argv + ["--progresses", "Append", note])
    elif skill == "check-reject-proof":
        n = len(load(p["statement_id"])["validation"]["issues"]) + 1
        issue = "[Issue #%d] Sentence %d: '%s' | Type: %s | Explanation: %s | Fix: %s" % (
            n, p["sentence_number"], p["sentence_text"], p["error_type"], p["explanation"], p["suggested_fix"])
        run([S, "--id", p["statement_id"], "--status", "validating", "--validation.issues", "Append", issue])
    elif skill == "fix-patch-proof":
        n = len(load(p["statement_id"])["validation"]["responses"]) + 1
        resp = "[Response #%d] Fixes Issue #%d | Type: patch | Change: %s" % (n, p["issue_number"], p["change_description"])
        run([S, "--id", p["statement_id"], "--status", "validating", "--proof.full", p["updated_proof"],
             "--validation.responses", "Append", resp])
    elif skill == "fix-create-substatement":
        argv = [S, "--type", "normal", "--conclusion", p["sub_claim"]]
        if p.get("sub_premises"):
            argv += ["--hypothesis", "Overwrite"] + p["sub_premises"]
        sid = created(run(argv), "s")
        n = len(load(p["parent_statement_id"])["validation"]["responses"]) + 1
        resp = "[Response #%d] Fixes Issue #%d | Type: substatement | SubID: %s | Purpose: %s" % (
            n, p["issue_number"], sid, p["purpose"])
        run([S, "--id", p["parent_statement_id"], "--status", "validating", "--preliminaries", "Append", sid,
             "--validation.responses", "Append", resp])
    elif skill == "state-setup-substatement":
        ids = []
        for sub in p["sub_statements"]:
            argv = [S, "--type", "normal", "--conclusion", sub["claim"]]
            if sub.get("premises"):
                argv += ["--hypothesis", "Overwrite"] + sub["premises"]
            ids.append(created(run(argv), "s"))
        run([S, "--id", p["parent_statement_id"], "--preliminaries", "Append"] + ids +
            ["--status", "validating", "--progresses", "Append",
             "DECOMPOSED: Created %s. Rationale: %s" % (", ".join(ids), p["rationale"])])
    elif skill == "state-mark-false":
        argv = [S, "--id", p["statement_id"], "--status", "false", "--progresses", "Append",
                "COUNTEREXAMPLE: " + p["counterexample"]]
        if p.get("issue_number") is not None:
            n = len(load(p["statement_id"])["validation"]["responses"]) + 1
            argv += ["--validation.responses", "Append", "[Response #%d] Fixes Issue #%d | Type: false | Counterexample: %s" % (
                n, p["issue_number"], p["counterexample"])]
        run(argv)
    elif skill == "state-propose-modification":
        change = modification_text(p)
        argv = [S, "--id", p["statement_id"], "--status", "validating", "--progresses", "Append",
                "MODIFICATION: Type=%s | %s | Rationale: %s" % (p["modification_type"], change, p["rationale"])]
        if p.get("issue_number") is not None:
            n = len(load(p["statement_id"])["validation"]["responses"]) + 1
            argv += ["--validation.responses", "Append",
                     "[Response #%d] Fixes Issue #%d | Type: modification | ModType: %s | Proposal: %s" % (
                         n, p["issue_number"], p["modification_type"], change)]
        run(argv)
    elif skill == "check-confirm-proof":
        if p["direction"] == "proof":
            status, note = "true", "VERIFIED: "
        else:
            status, note = "false", "DISPROOF VERIFIED: "
        run([S, "--id", p["statement_id"], "--status", status, "--reliability", "1.0",
             "--progresses", "Append", note + p["verification_summary"]])
    elif skill == "prob-setup-subgoal":
        argv = [P, "--objectives"] + p["subproblem_objective"]
        if p.get("subproblem_hypothesis"):
            argv += ["--hypothesis"] + p["subproblem_hypothesis"]
        argv += ["--status", "unresolved"]
        if p.get("priority"):
            argv += ["--priority", p["priority"]]
        pid = created(run(argv), "p")
        run([P, "--id", p["parent_problem_id"], "--preliminaries", "Append", pid])
    elif skill == "prob-finish-up":
        argv = [P, "--id", p["problem_id"], "--status", "resolved", "--solution.full", p["resolution"]]
        if p.get("cot"):
            argv += ["--solution.cot", "Overwrite"] + p["cot"]
        run(argv + ["--solution.ref", "Overwrite"] + p["key_statement_id"])
    else:
        raise ScriptFailed("unknown skill " + skill)


def main():
    for line in sys.stdin:
        req = json.loads(line)
        try:
            if req["op"] == "init":
                out = run(["prob_init.py", "--hypothesis"] + req["hypothesis"] + ["--objectives"] + req["objectives"])
            elif req["op"] == "call":
                apply_call(req["skill"], req["params"])
                out = ""
            elif req["op"] == "current":
                out = run(["current.py"])
            else:
                raise ScriptFailed("unknown op %r" % req["op"])
            answer = {"ok": True, "out": out}
        except Exception as e:  # the test reports it with the call
            answer = {"ok": False, "error": "%s: %s" % (type(e).__name__, e)}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()


if __name__ == "__main__":
    main()
