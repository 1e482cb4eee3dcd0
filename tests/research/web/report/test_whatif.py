"""What-if weights: the numbers the report page hands its script, saving re-weighted
decisions as decisions of their own, and who may."""

from __future__ import annotations

import json
import re
from html import unescape

import pytest
from django.urls import reverse

from decisions.scoring.totals import rank, total
from decisions.withhold import HALF, withheld
from research.artifacts import Decision, ScoreCell
from research.names import saved_artifact
from research.store import readers, store_for
from tests.research.web.report.whatif_node import node_rank, node_recommend, node_to_win

pytestmark = pytest.mark.django_db


def page_model(client, run_id: str) -> dict:
    html = client.get(reverse("web:report", args=[run_id])).text
    found = re.search(r'<form id="whatif"[^>]* data-model="([^"]*)"', html)
    assert found, "the report page hands its what-if script no numbers"
    return json.loads(unescape(found.group(1)))


def text_of(html: str) -> str:
    return unescape(re.sub(r"<[^>]+>", "", html))


def save(client, run_id: str, weights: dict[str, object]):
    return client.post(
        reverse("web:reweigh", args=[run_id]),
        {"dimension": list(weights), "weight": [str(w) for w in weights.values()]},
    )


def test_the_page_hands_over_every_cell_score_and_the_runs_weights(install, ada_client):
    run = install("en")
    model = page_model(ada_client, run.run_id)
    decision = readers.decision(store_for(run.run_id))

    assert [d["name"] for d in model["dimensions"]] == [
        "licence risk",
        "maintenance activity",
        "customisation cost",
    ]
    assert model["neutral"] == 50 and model["min_sites"] == 2
    cells = {(c.option, c.dimension): c for c in decision.matrix}
    for option in model["options"]:
        for dim, score in zip(model["dimensions"], option["scores"], strict=True):
            cell = cells[(option["option"], dim["name"])]
            assert score == (None if cell.missing else cell.score)


def test_the_script_gives_the_decide_stages_totals_and_ranking(install, ada_client):
    run = install("en")
    model = page_model(ada_client, run.run_id)
    decision = readers.decision(store_for(run.run_id))
    weights = [d["weight"] for d in model["dimensions"]]

    ranking = node_rank(model, weights)

    assert [r["option"] for r in ranking] == [r.option for r in decision.ranking]
    assert {r["option"]: r["total"] for r in ranking} == decision.totals


def test_saving_new_weights_decides_again_as_a_decision_of_its_own(install, ada_client):
    run = install("en")
    store = store_for(run.run_id)
    before = store.read_bytes("round_5_decision.json")
    weights = {"licence risk": 10, "maintenance activity": 10, "customisation cost": 80}

    response = save(ada_client, run.run_id, weights)

    assert response.status_code == 302
    assert response["Location"] == reverse("web:saved", args=[run.run_id, 1])
    assert store.read_bytes("round_5_decision.json") == before  # the run's own stays
    saved = store.read_model(saved_artifact(1, "round_5_decision.json"), Decision)
    own = readers.decision(store)
    shares = {name: w / 100 for name, w in weights.items()}
    for option in own.totals:
        cells = [c for c in saved.matrix if c.option == option]
        expected = total(cells, shares)
        assert saved.totals[option] == (None if expected is None else round(expected, 1))
    assert saved.ranking == rank(
        saved.totals, saved.matrix, shares, {r.option: r.sites for r in saved.ranking}
    )
    assert [c.model_dump() for c in saved.matrix] == [c.model_dump() for c in own.matrix]

    page = ada_client.get(response["Location"]).text
    assert "Decision 1 of this run" in page and "customisation cost 80%" in page
    markdown = ada_client.get(reverse("web:saved-export", args=[run.run_id, 1]))
    assert markdown.status_code == 200
    assert markdown["Content-Disposition"].endswith('-1.md"')
    assert "| customisation cost | 80% |" in markdown.content.decode()
    listed = ada_client.get(reverse("web:report", args=[run.run_id])).text
    assert 'data-saved-item="1"' in listed


def test_weights_that_cannot_be_decided_with_are_refused_saying_why(install, ada_client):
    run = install("en")
    response = save(
        ada_client,
        run.run_id,
        {"licence risk": 0, "maintenance activity": 1, "customisation cost": 1},
    )

    assert response.status_code == 302 and response["Location"].endswith("#whatif")
    page = ada_client.get(response["Location"]).text
    assert "The weight of &#x27;licence risk&#x27; must be a number above 0" in page
    assert not store_for(run.run_id).artifact_path(saved_artifact(1, "about.json")).exists()


def test_another_user_gets_a_404_on_every_what_if_url(install, ada_client, bob_client):
    run = install("en")
    save(
        ada_client,
        run.run_id,
        {"licence risk": 1, "maintenance activity": 1, "customisation cost": 2},
    )

    assert (
        save(
            bob_client,
            run.run_id,
            {"licence risk": 1, "maintenance activity": 1, "customisation cost": 1},
        ).status_code
        == 404
    )
    assert bob_client.get(reverse("web:saved", args=[run.run_id, 1])).status_code == 404
    assert bob_client.get(reverse("web:saved-export", args=[run.run_id, 1])).status_code == 404
    assert ada_client.get(reverse("web:saved", args=[run.run_id, 2])).status_code == 404
    assert not store_for(run.run_id).artifact_path(saved_artifact(2, "about.json")).exists()


def test_the_weight_that_would_let_the_runner_up_win_does(install, ada_client):
    model = page_model(ada_client, install("en").run_id)
    model["dimensions"] = [{"name": "speed", "weight": 0.6}, {"name": "cost", "weight": 0.4}]
    model["options"] = [
        {"option": "Xeno", "scores": [80.0, 40.0], "evidence": 2, "sites": 2},
        {"option": "Yarrow", "scores": [50.0, 70.0], "evidence": 2, "sites": 2},
    ]
    weights = [60.0, 40.0]  # Xeno 64, Yarrow 58

    win = node_to_win(model, weights)

    # Lowering speed to 39 or raising cost to 61 would do; the first is as small a change.
    assert win == {
        "dimension": "speed",
        "index": 0,
        "from": 60,
        "to": 39,
        "option": "Yarrow",
        "over": "Xeno",
    }
    assert node_rank(model, [39.0, 40.0])[0]["option"] == "Yarrow"
    assert node_rank(model, [40.0, 40.0])[0]["option"] == "Xeno"  # a tie is not a win


def test_no_single_weight_is_named_when_none_would_change_the_winner(install, ada_client):
    model = page_model(ada_client, install("en").run_id)
    model["options"] = [
        {"option": "Xeno", "scores": [90.0] * 3, "evidence": 3, "sites": 2},
        {"option": "Yarrow", "scores": [40.0] * 3, "evidence": 3, "sites": 2},
    ]
    assert node_to_win(model, [d["weight"] * 100 for d in model["dimensions"]]) is None


# SQLite has evidence on cost alone; Postgres on cost and licence risk, below SQLite on cost.
WITHHOLD_MODEL = {
    "neutral": 50,
    "min_sites": 2,
    "half": HALF,
    "max_weight": 100,
    "dimensions": [{"name": n, "weight": 1 / 3} for n in ("cost", "licence risk", "upkeep")],
    "options": [
        {"option": "SQLite", "scores": [90.0, None, None], "evidence": 1, "sites": 3},
        {"option": "Postgres", "scores": [40.0, 70.0, None], "evidence": 2, "sites": 3},
    ],
}


@pytest.mark.parametrize(
    ("weights", "expected"),
    [
        ([1, 1, 1], (None, "thin_evidence")),  # SQLite's evidence: a third of the weight
        ([50, 30, 20], ("SQLite", "")),  # half of it, and it leads on cost, where both have some
        ([40, 20, 40], (None, "thin_evidence")),
        ([20, 10, 70], (None, "thin_evidence")),
    ],
)
def test_the_script_withholds_a_recommendation_as_the_decide_stage_does(weights, expected):
    names = [d["name"] for d in WITHHOLD_MODEL["dimensions"]]
    cells = [
        ScoreCell(option=o["option"], dimension=n, score=s, missing=s is None)
        for o in WITHHOLD_MODEL["options"]
        for n, s in zip(names, o["scores"], strict=True)
    ]
    by_name = dict(zip(names, weights, strict=True))
    totals = {
        o: total([c for c in cells if c.option == o], by_name) for o in ("SQLite", "Postgres")
    }
    held = withheld(rank(totals, cells, by_name), cells, by_name)

    rec = node_recommend(WITHHOLD_MODEL, weights)

    assert (rec["option"], rec["why"]) == expected
    assert rec["why"] == (held.kind if held else "")


def test_the_script_withholds_a_lead_that_rests_only_on_the_runner_ups_gaps():
    model = {
        **WITHHOLD_MODEL,
        "options": [
            {"option": "Steady", "scores": [70.0, 75.0, 75.0], "evidence": 3, "sites": 2},
            {"option": "Solo", "scores": [85.0, None, None], "evidence": 1, "sites": 3},
        ],
    }

    rec = node_recommend(model, [1, 1, 1])

    assert rec == {"option": None, "why": "unshared_lead", "top": "Steady", "over": "Solo"}


def test_weights_that_leave_the_leader_ahead_only_on_a_gap_give_no_recommendation_everywhere(
    install, ada_client
):
    # 青鸟流程 has no evidence on 可扩展性; with most of the weight there, 河图引擎 leads
    # only because of it, while 青鸟流程 scores higher on every dimension both have evidence on.
    run = install("zh")
    weights = {"成本": 10, "学习曲线": 10, "社区活跃度": 10, "可扩展性": 60, "风险": 10}

    response = save(ada_client, run.run_id, weights)

    store = store_for(run.run_id)
    saved = store.read_model(saved_artifact(1, "round_5_decision.json"), Decision)
    rec = saved.recommendation
    assert saved.ranking[0].option == "河图引擎"
    assert (rec.option, rec.withheld) == (None, "unshared_lead")
    assert rec.no_recommendation_reason.startswith("河图引擎的加权总分最高")
    assert "对青鸟流程的领先只来自青鸟流程没有证据的维度" in rec.no_recommendation_reason
    assert rec.would_settle == "补充青鸟流程在可扩展性方面的证据即可定夺。"
    assert saved.assessment.confidence < saved.threshold
    # the saved decision's page, its Markdown and the what-if script all say the same
    page = text_of(ada_client.get(response["Location"]).text)
    assert "不作推荐" in page
    assert rec.no_recommendation_reason in page and rec.would_settle in page
    markdown = ada_client.get(reverse("web:saved-export", args=[run.run_id, 1])).content.decode()
    assert "**不作推荐。** 得分最高的选项只在第二名没有证据的地方领先。" in markdown
    assert f"1. {rec.no_recommendation_reason}\n2. {rec.would_settle}\n" in markdown
    model = page_model(ada_client, run.run_id)
    by_name = [weights[d["name"]] for d in model["dimensions"]]
    assert node_recommend(model, by_name)["why"] == "unshared_lead"
