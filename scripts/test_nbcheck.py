#!/usr/bin/env python3
"""Tests of nbcheck.py on hand-made executed notebooks (standard library only).

Run: python3 scripts/test_nbcheck.py
"""

import contextlib
import io
import json
import os
import sys
import tempfile
import unittest

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nbcheck  # noqa: E402


def cell(source, outputs, count=1):
    return {"cell_type": "code", "execution_count": count, "metadata": {},
            "source": source, "outputs": outputs}


def stdout(text):
    return {"output_type": "stream", "name": "stdout", "text": text}


def stderr(text):
    return {"output_type": "stream", "name": "stderr", "text": text}


class NBCheckTest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.addCleanup(self.dir.cleanup)

    def write(self, name, cells):
        path = os.path.join(self.dir.name, name + ".ipynb")
        with open(path, "w", encoding="utf-8") as f:
            json.dump({"cells": cells, "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, f)
        return path

    def run_main(self, paths, checks=None, flags=()):
        """Runs nbcheck on paths with checks written as one JSON file."""
        argv = list(flags) + list(paths)
        if checks is not None:
            cpath = os.path.join(self.dir.name, "checks.json")
            with open(cpath, "w", encoding="utf-8") as f:
                json.dump(checks, f)
            argv = ["--checks", cpath] + argv
        return self.run_argv(argv)

    def run_argv(self, argv):
        buf = io.StringIO()
        with contextlib.redirect_stdout(buf):
            rc = nbcheck.main(argv)
        return rc, buf.getvalue()

    def checks_dir(self, checks, name="checks"):
        """Writes checks as a directory of NAME.json files; returns its path."""
        d = os.path.join(self.dir.name, name)
        os.mkdir(d)
        for name, one in checks.items():
            with open(os.path.join(d, name + ".json"), "w", encoding="utf-8") as f:
                json.dump(one, f)
        return d

    def test_clean_with_checks(self):
        p = self.write("01-tiger", [
            {"cell_type": "markdown", "metadata": {}, "source": "# Tiger"},
            cell("x", [stdout(["CHECK states=2\n", "CHECK value=19.3712\n"])]),
            cell("y", [stdout("CHECK w1=0.4567\n"), stderr("I1126 log line\n")]),
            cell("", [], count=None),  # empty cells need not run
        ])
        rc, out = self.run_main([p], {"01-tiger": {
            "_comment": "ignored", "states": "2", "value": {"value": 19.37, "abs": 0.01},
            "w1": {"digits": "0.46"}}})
        self.assertEqual(rc, 0, out)
        self.assertIn("nbcheck: 4 passed, 0 failed", out)

    def test_failures(self):
        tests = [
            ("error output", [cell("x", [{"output_type": "error", "ename": "ERROR", "evalue": "failed to run go build",
                                          "traceback": ["\x1b[31mboom\x1b[0m"]}])], "error ERROR"),
            ("panic", [cell("x", [stderr("panic: runtime error: index out of range\n\ngoroutine 1 [running]:\n")])],
             "stderr shows panic: runtime error"),
            ("not executed", [cell("x", [], count=None)], "was not executed"),
            ("compile error", [cell("x", [
                {"output_type": "display_data", "metadata": {}, "data": {"text/html": [
                    "<style>.gonb-err-location {}</style>\n<div class=\"jp-RenderedText\">",
                    "<div><span class=\"gonb-cell-line-info\">Cell[1]: Line 2</span> undefined: foo",
                    "<div class=\"gonb-err-context\">context <div class=\"gonb-err-line\">x := foo</div></div></div></div>"]}},
                {"output_type": "error", "ename": "ERROR", "evalue": "failed to run go build", "traceback": []}])],
             "failed to run go build\n      Cell[1]: Line 2 undefined: foo\n"),
            ("conflicting checks", [cell("x", [stdout("CHECK a=1\nCHECK a=2\n")])], "printed twice"),
        ]
        ok = cell("k", [stdout("CHECK k=1\n")])  # meets the one expectation
        for name, cells, want in tests:
            with self.subTest(name):
                rc, out = self.run_main([self.write("nb", [ok] + cells)], {"nb": {"k": "1", "a": "1"}})
                self.assertEqual(rc, 1, out)
                self.assertIn(want, out)
                self.assertIn("\u2713 CHECK k=1", out)

    def test_expectations(self):
        p = self.write("02", [cell("x", [stdout("CHECK s=abc\nCHECK n=3\nCHECK f=0.1251\nCHECK t=5\nCHECK nan=NaN\n")])])
        tests = [
            ({"s": "abc"}, True), ({"s": "abd"}, False), ({"s": {"equals": "abc"}}, True),
            ({"n": 3}, True), ({"n": 3.0000001}, False), ({"n": {"value": 3.1, "abs": 0.2}}, True),
            ({"f": {"digits": "0.13"}}, True), ({"f": {"digits": "0.12"}}, False),
            ({"t": {"min": 0, "max": 10}}, True), ({"t": {"max": 4}}, False),
            ({"nan": 1}, False), ({"s": 1}, False), ({"missing": "x"}, False),
        ]
        printed = {"s": "abc", "n": "3", "f": "0.1251", "t": "5", "nan": "NaN"}  # every line expected
        for expect, ok in tests:
            with self.subTest(expect=expect):
                rc, out = self.run_main([p], {"02": dict(printed, **expect)})
                self.assertEqual(rc, 0 if ok else 1, out)

    def test_no_notebooks(self):
        rc, out = self.run_argv(["--checks", self.checks_dir({})])
        self.assertEqual(rc, 0, out)
        self.assertIn("no notebooks to check", out)
        self.assertIn("nbcheck: 0 passed, 0 failed", out)

    # The cases below are errors: each used to pass (rc 0) without checking
    # anything.

    def test_checks_path_missing(self):
        p = self.write("01", [cell("x", [stdout("CHECK a=1\n")])])
        missing = os.path.join(self.dir.name, "no-such-checks")
        for argv in (["--checks", missing, p], [p]):
            with self.subTest(argv=argv):
                rc, out = self.run_argv(argv)
                self.assertEqual(rc, 2, out)
                self.assertIn("nbcheck: ", out)
        rc, out = self.run_argv(["--checks", missing, p])
        self.assertIn(missing, out)

    def test_checks_file_malformed(self):
        d = self.checks_dir({})
        bad = os.path.join(d, "01.json")
        with open(bad, "w", encoding="utf-8") as f:
            f.write('{\n  "a": 1,\n  "b": \n}\n')
        p = self.write("01", [cell("x", [stdout("CHECK a=1\n")])])
        rc, out = self.run_argv(["--checks", d, p])
        self.assertEqual(rc, 2, out)
        self.assertIn("nbcheck: %s:4: " % bad, out)

    def test_timing_refused(self):
        # A key number that is a timing is a usage error, in a checks
        # directory and in a checks file; names that merely contain such a
        # word (a table named planning-speedup) are not timings.
        p = self.write("01", [cell("x", [stdout("CHECK a=1\nCHECK cell.seconds=2\n")])])
        for key in ("cell.seconds", "speedup.T10.faster", "time", "rt.T4.runtime_s"):
            one = {"a": 1, key: {"min": 0, "max": 60}}
            for argv in (["--checks", self.checks_dir({"01": one}, name="c-" + key), p],):
                with self.subTest(key=key, kind="dir"):
                    rc, out = self.run_argv(argv)
                    self.assertEqual(rc, 2, out)
                    self.assertIn("a timing is reported, never checked", out)
                    self.assertIn(key, out)
            with self.subTest(key=key, kind="file"):
                rc, out = self.run_main([p], {"01": one})
                self.assertEqual(rc, 2, out)
                self.assertIn("entry 01 of", out)
        self.assertEqual(nbcheck.timing_keys({"repro.planning-speedup.agree": 8, "rt.layered.T4.histories": 31, "_seconds": 1}), [])

    def test_notebook_without_checks(self):
        tests = [
            ("no file", {}, "no checks: %s is missing"),
            ("nothing expected", {"02": {"_comment": "nothing"}}, "%s expects no key number"),
        ]
        for i, (name, checks, want) in enumerate(tests):
            with self.subTest(name):
                d = self.checks_dir(checks, "checks%d" % i)
                p = self.write("02", [cell("x", [stdout("CHECK a=1\n")])])
                rc, out = self.run_argv(["--checks", d, p])
                self.assertEqual(rc, 1, out)
                self.assertIn(want % os.path.join(d, "02.json"), out)

    def test_listed_notebook_did_not_run(self):
        d = self.checks_dir({"01": {"a": "1"}, "02": {"a": "1"}})
        p = self.write("01", [cell("x", [stdout("CHECK a=1\n")])])
        gone = os.path.join(self.dir.name, "out", "02.ipynb")  # nbconvert wrote nothing
        tests = [
            ("absent from the run", [p], 1, "02: \u2717 did not run (listed in %s)" % d),
            ("no executed file", [p, gone], 1, "02:\n  \u2717 did not run: no executed notebook " + gone),
            ("subset asked for", ["--subset", p], 0, "02: not part of this run (--subset)"),
            ("all ran", [p, self.write("02", [cell("x", [stdout("CHECK a=1\n")])])], 0, "4 passed, 0 failed"),
        ]
        for name, argv, rc_want, want in tests:
            with self.subTest(name):
                rc, out = self.run_argv(["--checks", d] + argv)
                self.assertEqual(rc, rc_want, out)
                self.assertIn(want, out)

    def test_check_without_expectation(self):
        p = self.write("01", [cell("x", [stdout("CHECK a=1\nCHECK extra=2\nCHECK more=x\n")])])
        rc, out = self.run_main([p], {"01": {"a": "1"}})
        self.assertEqual(rc, 1, out)
        self.assertIn("\u2717 CHECK extra=2 has no expectation", out)
        self.assertIn("\u2717 CHECK more=x has no expectation", out)
        self.assertIn("nbcheck: 2 passed, 2 failed", out)

    def test_parse_printed(self):
        self.assertEqual(nbcheck.parse_printed("0.25"), (0.25, 0.005))
        self.assertEqual(nbcheck.parse_printed("\u22121{,}234"), (-1234.0, 0.5))
        for bad in ("", "abc", "1-2", "."):
            with self.assertRaises(ValueError):
                nbcheck.parse_printed(bad)


class PrecisionRulesTest(unittest.TestCase):
    """The rule for printed precision is lib/verdict's: nbcheck reads it from
    precision-rules.json, which a Go test keeps current."""

    def test_same_verdicts_as_go(self):
        # Every case of the file, with what Go computed for it.
        cases = nbcheck.RULES["cases"]
        self.assertGreater(len(cases), 30)
        for c in cases:
            with self.subTest(printed=c["printed"], ours=c["ours"]):
                try:
                    value, tol = nbcheck.parse_printed(c["printed"])
                    number = True
                except ValueError:
                    number = False
                self.assertEqual(number, c["number"], c["why"])
                if number:
                    self.assertEqual((value, tol), (c["value"], c["tolerance"]), c["why"])
                    got = nbcheck.agrees(float(c["ours"]), c["printed"])
                else:
                    got = False
                self.assertEqual(got, c["agrees"], c["why"])

    def test_bare_zero(self):
        # A printed "0" is a claim of zero (the checker once accepted 0.3).
        p = os.path.join(tempfile.mkdtemp(), "z.ipynb")
        self.addCleanup(lambda: os.remove(p))
        with open(p, "w", encoding="utf-8") as f:
            json.dump({"cells": [cell("x", [stdout("CHECK gap=0.3\nCHECK zero=0.0000000001\n")])],
                       "metadata": {}, "nbformat": 4, "nbformat_minor": 5}, f)
        ok = dict((msg.split("=")[0], good) for good, msg in
                  nbcheck.check_notebook(p, {"gap": {"digits": "0"}, "zero": {"digits": "0"}}))
        self.assertFalse(ok["CHECK gap"])
        self.assertTrue(ok["CHECK zero"])

    def test_rules_are_read(self):
        # The rule comes from the file: another zero tolerance changes it.
        with open(nbcheck.RULES_PATH, encoding="utf-8") as f:
            rules = json.load(f)
        rules["zero_tolerance"] = 0.5
        path = os.path.join(tempfile.mkdtemp(), "rules.json")
        self.addCleanup(lambda: os.remove(path))
        with open(path, "w", encoding="utf-8") as f:
            json.dump(rules, f)
        self.assertTrue(nbcheck.agrees(0.3, "0", nbcheck.load_rules(path)))
        self.assertFalse(nbcheck.agrees(0.3, "0"))


if __name__ == "__main__":
    unittest.main()
