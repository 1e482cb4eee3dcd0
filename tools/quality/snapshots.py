"""Whether a change kept every run of a labelled corpus the same: run each topic through
`manage.py quality --corpus` and keep its artifacts with run ids, times and durations
scrubbed (a snapshot), then compare two snapshots file by file.

    python -m tools.quality.snapshots snapshot NAME [CORPUS]   # into $SNAPSHOTS_DIR/NAME
    python -m tools.quality.snapshots compare A B              # exit 1 if any file differs

A refactor must leave `compare before after` at 0 files differing."""

from __future__ import annotations

import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SNAPS = Path(os.environ.get("SNAPSHOTS_DIR", "/tmp/verdict-snapshots"))
DEVCORPUS = "../shared/devcorpus"
TS = re.compile(r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:[+-]\d{2}:\d{2}|Z)?")
DURATION_KEYS = {"elapsed_ms", "model_time_out_at", "secs", "seconds", "duration"}


def scrub(text: str, run_id: str) -> str:
    text = text.replace(run_id, "<RUN>")
    text = re.sub(r"(generated|生成于) \d{4}-\d{2}-\d{2}", r"\1 <DAY>", text)
    return TS.sub("<TS>", text)


def scrub_json(value, run_id):
    if isinstance(value, dict):
        return {
            k: ("<DUR>" if k in DURATION_KEYS else scrub_json(v, run_id)) for k, v in value.items()
        }
    if isinstance(value, list):
        return [scrub_json(v, run_id) for v in value]
    if isinstance(value, str):
        return scrub(value, run_id)
    return value


def normalise(folder: Path, out: Path) -> None:
    run_id = folder.name
    texts: dict[str, str] = {}
    for path in sorted(folder.rglob("*")):
        if path.is_dir():
            continue
        rel = path.relative_to(folder).as_posix()
        raw = path.read_text(encoding="utf-8")
        if rel.endswith(".json"):
            texts[rel] = json.dumps(
                scrub_json(json.loads(raw), run_id), indent=1, ensure_ascii=False
            )
        elif rel.endswith(".jsonl"):
            lines = [scrub_json(json.loads(x), run_id) for x in raw.splitlines() if x.strip()]
            texts[rel] = "\n".join(json.dumps(x, ensure_ascii=False) for x in lines)
        else:
            texts[rel] = scrub(raw, run_id)
    # The manifest's checksums and sizes cover files holding the run id and times: recompute
    # them over the scrubbed text so that they still say whether the contents changed.
    index = json.loads(texts["index.json"])
    for art in index.get("artifacts", []):
        body = texts.get(art["name"])
        if body is not None:
            art["sha256"] = hashlib.sha256(body.encode()).hexdigest()
            art["bytes"] = len(body.encode())
    texts["index.json"] = json.dumps(index, indent=1, ensure_ascii=False)
    for rel, body in texts.items():
        target = out / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(body, encoding="utf-8")


def snapshot(name: str, corpus: str = DEVCORPUS) -> None:
    dest = SNAPS / name
    runs = SNAPS / f"{name}.runs"
    for d in (dest, runs):
        shutil.rmtree(d, ignore_errors=True)
    dest.mkdir(parents=True)
    cmd = [".venv/bin/python", "manage.py", "quality", "--corpus", corpus, "--runs-dir", str(runs)]
    out = subprocess.run(cmd, cwd=REPO, capture_output=True, text=True, check=True).stdout
    (dest / "_quality.txt").write_text(re.sub(r"run folder \S+", "run folder <DIR>", out))
    for topic, folder in re.findall(r"^(\S+): run folder (\S+)$", out, re.M):
        normalise(Path(folder), dest / topic)
    print(out)


def compare(a: str, b: str) -> int:
    left, right = SNAPS / a, SNAPS / b
    for folder in (left, right):
        if not folder.is_dir():
            raise SystemExit(
                f"no snapshot {folder.name} in {SNAPS}: make it with `snapshot {folder.name}`"
            )
    files = sorted(
        {p.relative_to(left) for p in left.rglob("*") if p.is_file()}
        | {p.relative_to(right) for p in right.rglob("*") if p.is_file()}
    )
    differ = 0
    for rel in files:
        if rel.name == "_quality.txt":
            # Seconds per topic vary from run to run: compare the figures without them.
            strip = lambda t: re.sub(r"\s+\d+\.\d+\s+(\d+)$", r" \1", t, flags=re.M)  # noqa: E731
            la, lb = (strip((d / rel).read_text()) for d in (left, right))
        else:
            la = (left / rel).read_text() if (left / rel).exists() else None
            lb = (right / rel).read_text() if (right / rel).exists() else None
        if la != lb:
            differ += 1
            print(f"DIFFERS: {rel}")
    topics = sorted({p.parts[0] for p in files if len(p.parts) > 1})
    print(
        f"{len(files)} files compared over {len(topics)} topics ({', '.join(topics)}): "
        f"{differ} differ"
    )
    return 1 if differ else 0


if __name__ == "__main__":
    if sys.argv[1] == "snapshot":
        snapshot(*sys.argv[2:4])
    else:
        sys.exit(compare(sys.argv[2], sys.argv[3]))
