#!/usr/bin/env python3
"""Turns ctest's JUnit output of a `long` run into a Markdown section for
results/long-tests.md: date, commit, machine, flags, each test's result and
seconds. Usage: long-test-record.py JUNIT.xml STARTED WALL_SECONDS COMMIT LOAD
(COMMIT as `git describe` gave it when the run started; LOAD the load
average then)."""
import os
import platform
import sys
import xml.etree.ElementTree as ET


def cpu_model():
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def main():
    junit, started, wall, commit, load = sys.argv[1:6]
    suite = ET.parse(junit).getroot()
    cases = suite.iter("testcase")
    rows, passed, failed = [], 0, 0
    for c in cases:
        name = c.get("name")
        secs = float(c.get("time", "0"))
        status = c.get("status", "run")
        bad = c.find("failure") is not None or c.find("error") is not None
        skipped = c.find("skipped") is not None or status == "notrun"
        verdict = "failed" if bad else ("skipped" if skipped else "passed")
        passed += verdict == "passed"
        failed += verdict == "failed"
        rows.append((name, verdict, secs))
    print(f"## {started} — commit {commit}")
    print()
    print(f"Machine: {os.cpu_count()} CPUs (`nproc`), {cpu_model()}; {platform.system()} {platform.release()}; "
          f"`ci` preset (-O3 -march=native, GCC); load average at the start {load}. "
          f"Wall time of the whole run: {wall} s. "
          f"Result: {passed} passed, {failed} failed.")
    print()
    print("| test | result | seconds |")
    print("|---|---|---|")
    for name, verdict, secs in rows:
        print(f"| {name} | {verdict} | {secs:.1f} |")
    print()


if __name__ == "__main__":
    main()
