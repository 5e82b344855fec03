#!/usr/bin/env python3
"""Check executed notebooks: no errors, no panics, and the expected key numbers.

Usage: nbcheck.py --checks notebooks/checks|checks.json [--subset] EXECUTED.ipynb...

A notebook fails when
  * its executed file does not exist (it did not run),
  * it has no checks (no NAME.json, or one that expects no key number),
  * a code cell was not executed (execution_count is null),
  * a cell has an output of type "error" (GoNB reports compile errors and
    non-zero exits this way),
  * a stderr stream shows a Go panic or fatal error,
  * one of its expected key numbers is missing or wrong,
  * it prints a key number that its checks do not expect.

Key numbers are stdout lines "CHECK name=value" (lib/nb's Check prints them).
The checks file maps a notebook's name (file name without .ipynb) to its
expectations, by check name:

  {
    "01-tiger": {
      "_comment": "keys starting with _ are ignored",
      "states": "2",                              exact string
      "classes": 3,                               number, relative tolerance 1e-9
      "value": {"value": 19.37, "abs": 0.01},     |got-value| <= max(abs, rel*|value|)
      "w1": {"digits": "0.46"},                   got rounds to the printed number
                                                  (lib/verdict's rule, read from
                                                  precision-rules.json; a bare
                                                  "0" means exactly zero)
      "classes": {"min": 2, "max": 5},            min <= got <= max
      "name": {"equals": "tiger"}                 exact string
    }
  }

No key number may be a timing: a check whose name has a part (between
dots) such as "seconds", "time", "wall", "runtime" or "faster" is a usage
error, since a timing depends on the machine and its load. Report times in
a notebook's text; check the work (histories processed, counts) instead.

A notebook that the checks list but that is not given on the command line did
not run, and fails too, unless --subset says that the notebooks given are a
chosen part of the set. A --checks path that does not exist, or a checks file
that is not a JSON object, is a usage error (exit status 2).
Only the Python standard library is used. The last line printed is
"nbcheck: N passed, N failed"; the exit status is 1 if anything failed.
"""

import argparse
import html.parser
import json
import math
import os
import re
import sys

CHECK_RE = re.compile(r"^CHECK ([^\s=]+)=(.*)$")
ANSI_RE = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
PANIC_RE = re.compile(r"^(panic: |fatal error: |goroutine \d+ \[)", re.M)


def text_of(value):
    """Joins a notebook multiline string (a string or a list of strings)."""
    if isinstance(value, list):
        return "".join(value)
    return value or ""


class _ErrorText(html.parser.HTMLParser):
    """Collects the text of GoNB's HTML error report, without its <style> and
    the source context that it shows on hover."""

    def __init__(self):
        super().__init__()
        self.parts = []
        self.skip = 0  # depth inside a skipped element

    def handle_starttag(self, tag, attrs):
        cls = dict(attrs).get("class") or ""
        if self.skip:
            self.skip += 1
        elif tag == "style" or "gonb-err-context" in cls:
            self.skip = 1

    def handle_endtag(self, tag):
        if self.skip:
            self.skip -= 1

    def handle_data(self, data):
        if not self.skip:
            self.parts.append(data)


def html_error_text(fragment, limit=12):
    """Returns the first lines of text of a GoNB HTML error report."""
    p = _ErrorText()
    p.feed(fragment)
    lines = [l.strip() for l in "".join(p.parts).splitlines()]
    return [l for l in lines if l][:limit]


# The rule for printed precision is lib/verdict's (Go), written to
# precision-rules.json beside this script: nbcheck applies the same rule,
# read from there (test_nbcheck.py checks it gives Go's verdict on every
# case of the file).
RULES_PATH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "precision-rules.json")


def load_rules(path=RULES_PATH):
    """Returns the precision rules written by lib/verdict."""
    with open(path, encoding="utf-8") as f:
        rules = json.load(f)
    rules["number_re"] = re.compile(rules["number"])
    return rules


RULES = load_rules()


def parse_printed(s, rules=None):
    """Returns (value, tolerance) of a printed number: half a unit of its
    last printed digit, or the zero tolerance for a bare 0 (a claim of
    zero). Raises ValueError for anything that is not a printed number."""
    rules = rules or RULES
    t = s.strip().strip(rules["strip"])
    for sep in rules["remove"]:
        t = t.replace(sep, "")
    for m in rules["minus"]:
        t = t.replace(m, "-")
    m = rules["number_re"].fullmatch(t)
    if not m or not ((m.group(2) or "") + (m.group(4) or "")):
        raise ValueError("not a printed number: %r" % s)
    value = float(t)
    if math.isinf(value) or math.isnan(value):
        raise ValueError("not a printed number: %r" % s)
    decimals = len(m.group(4) or "")
    exp = int(m.group(5)) if m.group(5) else 0
    if m.group(3) is None and m.group(5) is None and not (m.group(2) or "").strip("0"):
        return value, rules["zero_tolerance"]
    return value, float("5e%d" % (exp - decimals - 1))


def agrees(got, printed, rules=None):
    """Whether got (a float) agrees with the printed number (lib/verdict's
    Agrees): |got - printed| <= tol + relative_slack*max(|printed|, tol)."""
    rules = rules or RULES
    v, tol = parse_printed(printed, rules)
    if math.isnan(got) or math.isinf(got):
        return False
    slack = rules["relative_slack"] * max(abs(v), tol)
    return abs(got - v) <= tol + slack


def as_float(got):
    v = float(got)  # accepts NaN, Inf
    return v


def compare(expect, got):
    """Returns (ok, description of the expectation)."""
    if isinstance(expect, bool):
        return got == str(expect).lower(), "= %s" % str(expect).lower()
    if isinstance(expect, str):
        return got == expect, "= %s" % expect
    if isinstance(expect, (int, float)):
        expect = {"value": expect}
    if not isinstance(expect, dict):
        raise ValueError("bad expectation %r" % (expect,))
    try:
        if "equals" in expect:
            return got == str(expect["equals"]), "= %s" % expect["equals"]
        if "digits" in expect:
            return agrees(as_float(got), str(expect["digits"])), "rounds to %s" % expect["digits"]
        if "value" in expect:
            v = float(expect["value"])
            tol = max(float(expect.get("abs", 0)), float(expect.get("rel", 1e-9)) * abs(v))
            g = as_float(got)
            return abs(g - v) <= tol, "%s ± %g" % (expect["value"], tol)
        if "min" in expect or "max" in expect:
            lo = float(expect.get("min", -math.inf))
            hi = float(expect.get("max", math.inf))
            g = as_float(got)
            return lo <= g <= hi, "in [%s, %s]" % (expect.get("min", "-inf"), expect.get("max", "inf"))
    except ValueError as e:
        return False, str(e)
    raise ValueError("bad expectation %r" % (expect,))


class ChecksError(Exception):
    """A checks file or directory that cannot be used."""


def load_json_object(path):
    """Returns the JSON object in path; raises ChecksError naming file and line."""
    try:
        with open(path, encoding="utf-8") as f:
            value = json.load(f)
    except json.JSONDecodeError as e:
        raise ChecksError("%s:%d: %s" % (path, e.lineno, e.msg))
    except (OSError, UnicodeDecodeError) as e:
        raise ChecksError("cannot read %s: %s" % (path, e))
    if not isinstance(value, dict):
        raise ChecksError("%s must hold a JSON object" % path)
    return value


# Name parts (between dots) of a key number that is a timing, which no
# check may be (see the module comment).
TIMING_PARTS = {"seconds", "secs", "sec", "ms", "time", "times", "wall", "elapsed", "duration",
                "runtime", "runtime_s", "cpu", "faster", "slower", "speedup"}


def timing_keys(expected):
    """Returns the names in one notebook's expectations that are timings."""
    return [k for k in expected if not k.startswith("_")
            and any(part.lower() in TIMING_PARTS for part in k.split("."))]


def refuse_timings(expected, where):
    """Raises ChecksError when a notebook's expectations check a timing."""
    bad = timing_keys(expected)
    if bad:
        raise ChecksError("%s: %s: a timing is reported, never checked (it depends on the machine's load); "
                          "check the work instead (histories processed, counts)" % (where, ", ".join(sorted(bad))))


def load_checks(path):
    """Returns ({notebook name: expectations}, where) for a checks directory
    (one NAME.json per notebook) or one checks file; where(name) names the
    place that holds, or should hold, the expectations of notebook name."""
    if not path:
        raise ChecksError("--checks is required (a directory of NAME.json files, or one JSON file)")
    if os.path.isdir(path):
        expected = {}
        for fn in sorted(os.listdir(path)):
            if fn.endswith(".json"):
                expected[fn[: -len(".json")]] = load_json_object(os.path.join(path, fn))
                refuse_timings(expected[fn[: -len(".json")]], os.path.join(path, fn))
        return expected, lambda name: os.path.join(path, name + ".json")
    if not os.path.exists(path):
        raise ChecksError("checks %s: no such file or directory" % path)
    expected = load_json_object(path)
    for name, one in expected.items():
        if not name.startswith("_") and not isinstance(one, dict):
            raise ChecksError("%s: entry %s must hold a JSON object" % (path, name))
        if not name.startswith("_"):
            refuse_timings(one, "entry %s of %s" % (name, path))
    return expected, lambda name: "entry %s of %s" % (name, path)


def check_notebook(path, expectations, where="the checks"):
    """Returns a list of (ok, message) results for one executed notebook.

    With expectations None (the notebook has no checks) only how it ran is
    judged; otherwise every expectation and every CHECK line is, and where
    names the checks in messages."""
    results = []
    try:
        with open(path, encoding="utf-8") as f:
            nb = json.load(f)
    except (OSError, ValueError) as e:
        return [(False, "cannot read %s: %s" % (path, e))]
    problems = []
    checks = {}
    for i, cell in enumerate(nb.get("cells", [])):
        if cell.get("cell_type") != "code":
            continue
        where = "cell %d" % (i + 1)
        if text_of(cell.get("source")).strip() and cell.get("execution_count") is None:
            problems.append("%s was not executed" % where)
        stdout = []
        reports = []  # text of GoNB's HTML error reports in this cell
        for out in cell.get("outputs", []):
            kind = out.get("output_type")
            if kind == "display_data":
                h = text_of((out.get("data") or {}).get("text/html"))
                if "gonb-err" in h or "application/vnd.jupyter.stderr" in h:
                    reports.extend(html_error_text(h))
            if kind == "error":
                tb = ANSI_RE.sub("", "\n".join(out.get("traceback") or [])).strip()
                detail = reports or ([tb] if tb and tb != out.get("evalue") else [])
                problems.append("%s: error %s: %s%s" % (
                    where, out.get("ename"), out.get("evalue"),
                    "".join("\n      " + l for l in "\n".join(detail).splitlines())))
            elif kind == "stream" and out.get("name") == "stderr":
                text = ANSI_RE.sub("", text_of(out.get("text")))
                m = PANIC_RE.search(text)
                if m:
                    line = text[m.start():].splitlines()[0]
                    problems.append("%s: stderr shows %s" % (where, line))
            elif kind == "stream" and out.get("name") == "stdout":
                stdout.append(text_of(out.get("text")))
        for line in "".join(stdout).splitlines():
            m = CHECK_RE.match(line.strip())
            if not m:
                continue
            name, value = m.group(1), m.group(2).strip()
            if name in checks and checks[name] != value:
                problems.append("CHECK %s printed twice, %s and %s" % (name, checks[name], value))
            checks[name] = value
    if problems:
        results.append((False, "ran with problems:\n    " + "\n    ".join(problems)))
    else:
        results.append((True, "ran cleanly"))
    if expectations is None:
        return results
    for name, expect in sorted(expectations.items()):
        if name.startswith("_"):
            continue
        if name not in checks:
            results.append((False, "CHECK %s missing" % name))
            continue
        try:
            ok, desc = compare(expect, checks[name])
        except ValueError as e:
            ok, desc = False, str(e)
        results.append((ok, "CHECK %s=%s (expected %s)" % (name, checks[name], desc)))
    for name in sorted(n for n in checks if n not in expectations):
        results.append((False, "CHECK %s=%s has no expectation in %s" % (name, checks[name], where)))
    return results


def judge(path, name, expected, where):
    """Returns the (ok, message) results for the notebook given as path."""
    if not os.path.exists(path):
        return [(False, "did not run: no executed notebook %s" % path)]
    if name not in expected:
        return check_notebook(path, None) + [(False, "no checks: %s is missing" % where(name))]
    expectations = expected[name]
    if not any(not k.startswith("_") for k in expectations):
        return check_notebook(path, None) + [(False, "%s expects no key number" % where(name))]
    return check_notebook(path, expectations, where(name))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--checks", help="directory of NAME.json files (or one JSON file) of expected key numbers")
    ap.add_argument("--subset", action="store_true",
                    help="the notebooks given are a chosen part of those the checks list")
    ap.add_argument("notebooks", nargs="*", help="executed notebooks")
    args = ap.parse_args(argv)
    try:
        expected, where = load_checks(args.checks)
    except ChecksError as e:
        print("nbcheck: %s" % e)
        return 2
    passed = failed = 0
    seen = set()
    for path in args.notebooks:
        name = os.path.splitext(os.path.basename(path))[0]
        seen.add(name)
        print("%s:" % name)
        for ok, msg in judge(path, name, expected, where):
            print("  %s %s" % ("\u2713" if ok else "\u2717", msg))
            if ok:
                passed += 1
            else:
                failed += 1
    for name in sorted(set(expected) - seen):
        if name.startswith("_"):
            continue
        if args.subset:
            print("%s: not part of this run (--subset)" % name)
        else:
            print("%s: \u2717 did not run (listed in %s)" % (name, args.checks))
            failed += 1
    if not args.notebooks:
        print("no notebooks to check")
    print("nbcheck: %d passed, %d failed" % (passed, failed))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
