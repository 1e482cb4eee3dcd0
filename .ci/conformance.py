"""Read the MCP conformance suite's results and fail on a regression.

    python .ci/conformance.py RESULTS_DIR EXPECTED_FILE

RESULTS_DIR is the suite's `--output-dir`: one folder per scenario run,
`server-<scenario>-<timestamp>/checks.json`. A scenario passes when at least one of its
checks succeeded and none failed (warnings allowed). Prints every scenario as PASS or FAIL
(with the first failure's message) and exits 1 when a scenario listed in EXPECTED_FILE did
not pass. Scenarios that pass but are not listed are named, to be added by hand.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path

RUN_FOLDER = re.compile(r"server-(?P<scenario>.+)-\d{4}-\d{2}-\d{2}T[\d-]+Z")


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


def expected(path: Path) -> list[str]:
    lines = (line.split("#", 1)[0].strip() for line in path.read_text().splitlines())
    return [line for line in lines if line]


def main(folder: Path, expected_file: Path) -> int:
    found = results(folder)
    for scenario, (passed, why) in sorted(found.items()):
        print(f"{'PASS' if passed else 'FAIL'}  {scenario}" + (f": {why[:160]}" if why else ""))
    must_pass = expected(expected_file)
    regressions = [s for s in must_pass if not found.get(s, (False, ""))[0]]
    newly = sorted(s for s, (passed, _) in found.items() if passed and s not in must_pass)
    passing = sum(passed for passed, _ in found.values())
    print(f"conformance: {passing} of {len(found)} scenarios pass")
    if newly:
        print(f"now passing, not yet in {expected_file}: {', '.join(newly)}")
    if regressions:
        print(f"REGRESSION: expected to pass but did not: {', '.join(regressions)}")
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(Path(sys.argv[1]), Path(sys.argv[2])))
