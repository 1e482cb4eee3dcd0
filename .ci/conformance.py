"""Read the MCP conformance suite's results and fail on anything but the expected.

    python .ci/conformance.py RESULTS_DIR BASELINE_FILE

RESULTS_DIR is the suite's `--output-dir`: one folder per scenario run,
`server-<scenario>-<timestamp>/checks.json`. A scenario passes when at least one of its
checks succeeded and none failed (warnings allowed). BASELINE_FILE is the suite's own
expected-failures YAML (`server:` then `  - scenario  # why`), which the suite also reads.

Prints every scenario as PASS, FAIL or EXPECTED (a listed failure, with its reason), then
the counts, and exits 1 when a scenario failed that is not listed, or a listed one passed
(the list is stale: take it out), or the suite ran no scenario at all.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

RUN_FOLDER = re.compile(r"server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z")
ENTRY = re.compile(r"^\s+-\s+(?P<scenario>[\w.-]+)\s*(?:#\s*(?P<why>.*))?$")


def results(folder: Path) -> dict[str, tuple[bool, str]]:
    """scenario -> (passed, why not)."""
    found: dict[str, tuple[bool, str]] = {}
    for checks_file in sorted(folder.glob("*/checks.json")):
        match = RUN_FOLDER.fullmatch(checks_file.parent.name)
        if not match:
            continue
        checks = json.loads(checks_file.read_text(encoding="utf-8"))
        statuses = [check.get("status") for check in checks]
        failures = [c for c in checks if c.get("status") == "FAILURE"]
        passed = "SUCCESS" in statuses and not failures
        why = "" if passed else (failures[0].get("errorMessage", "") if failures else "no check")
        found[match["scenario"]] = (passed, why)
    return found


def baseline(path: Path) -> dict[str, str]:
    """The server scenarios expected to fail -> the reason given in the comment."""
    expected: dict[str, str] = {}
    section = ""
    for line in path.read_text(encoding="utf-8").splitlines():
        if re.match(r"^\w+:", line):
            section = line.split(":", 1)[0]
        elif section == "server" and (match := ENTRY.match(line)):
            expected[match["scenario"]] = (match["why"] or "").strip()
    return expected


def main(folder: Path, baseline_file: Path) -> int:
    found = results(folder)
    expected = baseline(baseline_file)
    unexpected, stale = [], []
    for scenario, (passed, why) in sorted(found.items()):
        if scenario in expected:
            label = "STALE" if passed else "EXPECTED"
            (stale if passed else []).append(scenario)
            print(f"{label:8}  {scenario}: {expected[scenario]}")
        else:
            reason = f": {why[:160]}" if why else ""
            print(f"{'PASS' if passed else 'FAIL':8}  {scenario}{reason}")
            if not passed:
                unexpected.append(scenario)
    passing = sum(passed for passed, _ in found.values())
    failing = [s for s, (passed, _) in found.items() if not passed and s in expected]
    print(
        f"conformance: {len(found)} scenarios, {passing} passed, {len(unexpected)} failed, "
        f"{len(failing)} expected failures ({', '.join(sorted(failing)) or 'none'})"
    )
    if not found:
        print("REGRESSION: the suite ran no scenario (see its log)")
        return 1
    if stale:
        print(f"STALE: listed in {baseline_file} but passing now, take out: {', '.join(stale)}")
    if unexpected:
        print(f"REGRESSION: failed and not expected: {', '.join(unexpected)}")
    return 1 if unexpected or stale else 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
