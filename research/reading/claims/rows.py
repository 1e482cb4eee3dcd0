"""A comparison table's row read across its columns: the best and the worst of it.

"| Ecosystem size | 98 ✓ | 85 | 68 |" says the first option leads and the last trails;
"Performance | Moderate | High | Moderate" says the second is ahead of the others. A cell
is judged against its row, the way a reader reads a comparison table: by figures in one
unit (with the tick, or the row's measure, saying which way is better) or by words on one
scale (low < moderate < high; steep < moderate < gentle).
"""

from __future__ import annotations

import re
from collections.abc import Sequence

_TICK = re.compile(r"[✓✔✅☑]")
_FIGURE = re.compile(
    r"^[~≈约]?\s*(\d+(?:[.,]\d+)?)\s*(k|m|b|kb|mb|gb|ms|s|%|万|亿)?\+?(?:\s*\(.*\))?\s*[✓✔✅☑]?$",
    re.I,
)
_SCALE = {"k": 1e3, "m": 1e6, "b": 1e9, "万": 1e4, "亿": 1e8}
# Measures where more is better, and where less is.
_MORE_IS_BETTER = re.compile(
    r"download|star|throughput|req|ops|score|adoption|users|contributors|market|jobs|"
    r"per second|/s\b|下载|吞吐|评分|用户|岗位",
    re.I,
)
_LESS_IS_BETTER = re.compile(
    r"size|bundle|memory|latency|time|price|cost|footprint|overhead|体积|大小|内存|延迟|耗时|"
    r"价格|成本|费用",
    re.I,
)
# Words of one scale, from worst to best, for measures where more is better ...
_LEVELS = {
    "low": 0,
    "poor": 0,
    "limited": 0,
    "basic": 1,
    "small": 0,
    "moderate": 1,
    "medium": 1,
    "average": 1,
    "fair": 1,
    "good": 2,
    "high": 2,
    "large": 2,
    "excellent": 3,
    "very high": 3,
    "largest": 3,
    "较低": 0,
    "低": 0,
    "中等": 1,
    "一般": 1,
    "较高": 2,
    "高": 2,
    "很高": 3,
    "极高": 3,
}
# ... and for how hard something is, where less is better.
_EFFORT = {
    "steep": 0,
    "steeper": 0,
    "hard": 0,
    "difficult": 0,
    "high": 0,
    "moderate": 1,
    "medium": 1,
    "easy": 2,
    "gentle": 2,
    "low": 2,
    "陡峭": 0,
    "高": 0,
    "中等": 1,
    "中": 1,
    "简单": 2,
    "低": 2,
    "平缓": 2,
}
_EFFORT_ROW = re.compile(r"learning|curve|complexity|difficulty|学习|门槛|复杂", re.I)


def rank_row(header: str, cells: Sequence[str]) -> list[int] | None:
    """+1 for the best cell, -1 for the worst, 0 between; None when the row cannot be
    read across (cells in other units, words of no one scale, a measure of no known
    direction, or all alike)."""
    if len(cells) < 2:
        return None
    return _by_figures(header, cells) or _by_levels(header, cells)


def _by_figures(header: str, cells: Sequence[str]) -> list[int] | None:
    read = [_FIGURE.match(c.strip()) for c in cells]
    if not all(read):
        return None
    units = {(m.group(2) or "").lower() for m in read if m}
    if len(units - set(_SCALE) - {""}) > 1:
        return None
    values = [_value(m) for m in read if m]
    ticked = [i for i, c in enumerate(cells) if _TICK.search(c)]
    if len(ticked) == 1:
        higher = values[ticked[0]] == max(values)
        if not higher and values[ticked[0]] != min(values):
            return None
    elif _MORE_IS_BETTER.search(header):
        higher = True
    elif _LESS_IS_BETTER.search(header):
        higher = False
    else:
        return None
    return _extremes(values if higher else [-v for v in values])


def _value(match: re.Match[str]) -> float:
    number = float(match.group(1).replace(",", ""))
    return number * _SCALE.get((match.group(2) or "").lower(), 1.0)


def _by_levels(header: str, cells: Sequence[str]) -> list[int] | None:
    scale = _EFFORT if _EFFORT_ROW.search(header) else _LEVELS
    words = [re.sub(r"[\s*_✓✔✅☑]+", " ", c).strip().lower() for c in cells]
    if not all(w in scale for w in words):
        return None
    return _extremes([float(scale[w]) for w in words])


def _extremes(values: list[float]) -> list[int] | None:
    best, worst = max(values), min(values)
    if best == worst:
        return None
    return [1 if v == best else -1 if v == worst else 0 for v in values]
