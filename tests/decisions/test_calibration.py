"""Confidence is calibrated: thin runs stay below the threshold, well-supported runs pass it,
and a close race lowers it. Each run is built from plain artifacts."""

from __future__ import annotations

from tests.decisions.builders import Run

THRESHOLD = 65
OPTIONS = ["Orchardkv", "Quernbase"]
DIMENSIONS = ["speed", "licence risk"]


def own_pages_only() -> Run:
    """Each option's only source is its own documentation: one site per cell."""
    run = Run(OPTIONS, DIMENSIONS)
    for option, lean in (("Orchardkv", +1), ("Quernbase", -1)):
        sid, site = option[0].lower(), f"https://{option.lower()}.dev/docs"
        run.page(sid, site, f"{option} documentation")
        run.says(sid, option, "licence risk", f"{option} is MIT licensed.", 0, "licence", "MIT")
        run.says(sid, option, "speed", f"{option} is {'fast' if lean > 0 else 'slow'}.", lean)
    return run


def forums_only() -> Run:
    """Every cell is backed by two forum threads, and nothing else."""
    run = Run(OPTIONS, DIMENSIONS)
    for n in range(2):
        run.page(f"f{n}", f"https://forum.kv-talk{n}.example/t/{n}", f"Thread {n}")
        for option in OPTIONS:
            lean = +1 if option == "Orchardkv" else -1
            for dim in DIMENSIONS:
                run.says(f"f{n}", option, dim, f"In thread {n}, {option} on {dim}: {lean}.", lean)
    return run


def well_supported(runner_up_lean: int) -> Run:
    """Each option's own docs state its facts; two independent reviews judge every cell."""
    run = Run(OPTIONS, DIMENSIONS)
    for n in range(2):
        run.page(f"r{n}", f"https://kv-review{n}.com/embedded", f"Embedded stores, part {n}")
    for option in OPTIONS:
        sid = option[0].lower()
        run.page(sid, f"https://{option.lower()}.dev/docs", f"{option} documentation")
        run.says(sid, option, "licence risk", f"{option} is MIT licensed.", 0, "licence", "MIT")
        lean = +1 if option == "Orchardkv" else runner_up_lean
        for n in range(2):
            for dim in DIMENSIONS:
                run.says(f"r{n}", option, dim, f"Review {n} rates {option} on {dim}: {lean}.", lean)
    return run


def test_a_run_whose_cells_each_rest_on_one_site_stays_below_the_threshold() -> None:
    decision = own_pages_only().decide()

    assert decision.assessment.corroboration == 0.0
    assert decision.assessment.confidence < THRESHOLD
    assert decision.recommendation.low_confidence


def test_a_run_resting_on_forum_threads_only_stays_below_the_threshold() -> None:
    decision = forums_only().decide()

    assert decision.assessment.confidence < THRESHOLD
    assert decision.recommendation.low_confidence
    assert any("only on forums" in line for line in decision.missing_information)


def test_a_well_supported_run_with_a_clear_winner_passes_the_threshold() -> None:
    decision = well_supported(runner_up_lean=-1).decide()

    assert decision.recommendation.option == "Orchardkv"
    # licence cells: docs 0.9 + two reviews, fully backed; speed cells: two reviews, 1.2 / 1.5
    assert decision.assessment.corroboration == 90.0
    assert decision.assessment.confidence >= THRESHOLD
    assert not decision.recommendation.low_confidence


def test_a_narrow_margin_between_the_top_two_lowers_confidence() -> None:
    clear = well_supported(runner_up_lean=-1).decide()
    close = well_supported(runner_up_lean=+1)
    # The runner-up is judged as well as the winner but on fewer pages, so it trails a little.
    close.claims = [
        c for c in close.claims if not (c.option == "Quernbase" and c.source_id == "r1")
    ]
    narrow = close.decide()

    gap = narrow.ranking[0].total - narrow.ranking[1].total  # type: ignore[operator]
    assert 0 < gap < 10
    assert narrow.assessment.confidence < clear.assessment.confidence
    assert "points apart, so it is multiplied by 0.8 + 0.02 x" in narrow.assessment.method
