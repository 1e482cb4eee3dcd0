"""Stage 2: judge candidates on relevance, domain weight and age; drop near-duplicates.

With a model, relevance is its judgement where the rules are least sure: the MODEL_CANDIDATES
candidates nearest the keep cut (id, title, URL and snippet only, BATCH a call) come back
with keep or drop and a reason. Those far above the cut are kept and those far below are
dropped by the rules, whatever the limits, so the model's share of the run's tokens stays
fixed. Age, near-duplicates, the score and the cut stay with the rules below, and a
candidate the model did not judge is judged by them alone.
"""

from __future__ import annotations

import json
import re
from dataclasses import dataclass
from datetime import date
from difflib import SequenceMatcher
from urllib.parse import urlsplit

from pydantic import BaseModel

from research.artifacts import (
    Candidate,
    Candidates,
    DroppedCandidate,
    Filtered,
    KeptCandidate,
    Plan,
)
from research.context import StageContext
from research.llm import StageLLM
from research.providers.urls import canonical_url
from research.reading import (
    classify,
    contains_term,
    discover_aliases,
    has_cjk,
    keywords_for,
    mentions,
    terms,
)
from research.stages.near_copies import NearCopyIndex

STALE_YEARS = 5  # older than this loses its freshness points
OUTDATED_YEARS = 10  # older than this is dropped
NEAR_DUPLICATE = 0.9
BATCH = 10  # candidates per model call
MODEL_CANDIDATES = 2 * BATCH  # the most candidates the model judges in a run
# Of each snippet sent to the model: about 200 Latin characters or 50 Chinese ones, which
# say about as much (a Chinese character costs what four Latin ones do).
SNIPPET_TOKENS = 50
TITLE_TOKENS = 25
URL_CHARS = 60  # of the address without its scheme, "www." and query: the site and the page
REASON_CHARS = 200  # of each reason the model gives


@dataclass
class Judgement:
    candidate: Candidate
    score: float
    reasons: list[str]
    drop: str | None = None
    off_topic: bool = False  # dropped by the relevance rule, which a model's judgement replaces


def filter_candidates(
    plan: Plan,
    candidates: Candidates,
    ctx: StageContext,
    today: date | None = None,
    llm: StageLLM | None = None,
) -> Filtered:
    today = today or date.today()
    aliases = discover_aliases(
        [f"{c.title} {c.snippet}" for c in candidates.candidates], plan.options
    )
    judgements = [judge(plan, c, today, aliases) for c in candidates.candidates]
    if llm is not None:
        _apply_verdicts(judgements, relevance_verdicts(plan, judgements, llm, ctx))
    judged = sorted(judgements, key=lambda j: (-j.score, j.candidate.rank, j.candidate.id))
    _mark_duplicates(judged, plan.options)
    kept: list[KeptCandidate] = []
    dropped: list[DroppedCandidate] = []
    for j in judged:
        if j.drop is None and len(kept) >= plan.limits.max_kept:
            j.drop = f"below the cut: {plan.limits.max_kept} better-scored sources were kept"
        if j.drop is None:
            kept.append(KeptCandidate(**j.candidate.model_dump(), score=j.score, reasons=j.reasons))
            continue
        dropped.append(
            DroppedCandidate(
                id=j.candidate.id,
                url=j.candidate.url,
                title=j.candidate.title,
                reason=j.drop,
                score=j.score,
            )
        )
        ctx.record(
            "candidate_dropped",
            id=j.candidate.id,
            url=j.candidate.url,
            reason=j.drop,
            score=j.score,
        )
    for k in kept:
        ctx.record("candidate_kept", id=k.id, url=k.url, score=k.score, reasons=k.reasons)
    return Filtered(kept=kept, dropped=dropped)


def judge(
    plan: Plan,
    candidate: Candidate,
    today: date,
    aliases: dict[str, tuple[str, ...]] | None = None,
) -> Judgement:
    text = f"{candidate.title}\n{candidate.snippet}"
    reasons: list[str] = []
    score = 0.0
    # The address counts: rabbitmq.com/docs/confirms is about RabbitMQ whatever its title.
    named_in = f"{text}\n{_url_words(candidate.url)}"
    mentioned = [o for o in plan.options if mentions(named_in, o, (aliases or {}).get(o, ()))]
    if mentioned:
        score += 30
        reasons.append(f"mentions {', '.join(mentioned)} (+30)")
    dims = [
        d.name for d in plan.dimensions if any(contains_term(text, k) for k in keywords_for(d.name))
    ]
    if dims:
        score += 15
        reasons.append(f"speaks to {', '.join(dims)} (+15)")
    overlap = _overlap(plan, text)
    score += round(15 * overlap, 1)
    reasons.append(f"shares {overlap:.0%} of the question's terms (+{15 * overlap:.1f})")
    kind = classify(candidate.url, candidate.title, plan.options)
    domain_points = {"primary": 25, "comparison": 15, "community": 5}[kind.kind]
    score += domain_points
    reasons.append(f"{kind.kind} source: {kind.why} (+{domain_points})")
    fresh, age_reason, outdated = _freshness(candidate.published, today)
    score += fresh
    reasons.append(age_reason)
    substance = _substance(candidate.snippet)
    if substance:
        score += substance
        reasons.append(f"has substance: figures, comparisons or dated statements (+{substance})")
    drop = None
    off_topic = not mentioned and (overlap < 0.1 or (not dims and overlap < 0.2))
    if off_topic:
        drop = "off topic: mentions none of the options and few of the question's terms"
    elif outdated:
        drop = age_reason
    return Judgement(candidate, round(score, 1), reasons, drop, off_topic)


# --- relevance from the model -------------------------------------------------------------


class Verdict(BaseModel):
    id: str
    keep: bool
    reason: str


class Verdicts(BaseModel):
    judgements: list[Verdict]


def relevance_verdicts(
    plan: Plan, judgements: list[Judgement], llm: StageLLM, ctx: StageContext
) -> dict[str, Verdict]:
    """The model's keep-or-drop for the candidates nearest the keep cut (near_the_cut),
    asked BATCH at a time. Ids outside a call's batch are ignored; a candidate sent but left
    unjudged (a failed batch, a skipped id) is logged and keeps the rules' judgement, as do
    all those not sent."""
    sent = near_the_cut(plan, judgements)
    ctx.record(
        "llm_candidates_sent",
        stage=llm.stage,
        task="filter",
        sent=len(sent),
        by_rules=len(judgements) - len(sent),
        reason=f"the {MODEL_CANDIDATES} candidates nearest the keep cut, where the rules are "
        "least sure; the others keep the rules' judgement",
    )
    batches = [sent[i : i + BATCH] for i in range(0, len(sent), BATCH)]
    if not batches:
        return {}
    answers = llm.ask_batches(
        batches,
        prompt="filter",
        task="filter",
        schema=Verdicts,
        user=_batch_message,
        max_tokens=lambda batch: 80 + 50 * len(batch),
        fallback="the relevance rules for this batch of candidates",
        question=plan.question,
        options=plan.options,
        dimensions=[d.name for d in plan.dimensions],
        batch=BATCH,
    )
    verdicts: dict[str, Verdict] = {}
    for batch, answer in answers:
        if answer.value is None:
            continue
        ids = {c.id for c in batch}
        for verdict in answer.value.judgements:
            if verdict.id in ids and verdict.id not in verdicts:
                verdicts[verdict.id] = verdict
    unjudged = [c.id for c in sent if c.id not in verdicts]
    if unjudged:
        ctx.record(
            "llm_unjudged",
            stage=llm.stage,
            task="filter",
            ids=unjudged,
            fallback="the relevance rules",
        )
    return verdicts


def near_the_cut(plan: Plan, judgements: list[Judgement]) -> list[Candidate]:
    """At most MODEL_CANDIDATES candidates whose keep or drop the model can change, nearest
    the rules' keep cut, in the order they were found.

    The rules rank the candidates they would keep by score, then those they call off topic
    (the one drop a model's relevance judgement overturns); the first `max_kept` of that
    ranking are kept. The ones taken are those just inside and just outside that cut, in
    turn. Never sent: candidates too old to keep and near-copies of a better-scored one,
    which no relevance judgement changes."""
    order = sorted(judgements, key=lambda j: (-j.score, j.candidate.rank, j.candidate.id))
    keepable = [j for j in order if j.drop is None]
    off_topic = [j for j in order if j.off_topic]
    copies = {id(j) for j in _copies([*keepable, *off_topic], plan.options)}
    keepable = [j for j in keepable if id(j) not in copies]
    ranking = keepable + [j for j in off_topic if id(j) not in copies]
    cut = min(plan.limits.max_kept, len(keepable))
    taken: list[Judgement] = []
    for step in range(len(ranking)):
        for at in (cut - 1 - step, cut + step):
            if 0 <= at < len(ranking) and len(taken) < MODEL_CANDIDATES:
                taken.append(ranking[at])
    found = {id(j): n for n, j in enumerate(judgements)}
    return [j.candidate for j in sorted(taken, key=lambda j: found[id(j)])]


def _copies(ranking: list[Judgement], options: list[str]) -> list[Judgement]:
    """Those of `ranking` that are near-copies of one earlier in it, as the rules find them:
    the candidates they keep first, best-scored first, then those they call off topic (a
    model may keep one of these, and then a copy of a kept one is dropped)."""
    firsts: list[Candidate] = []
    index = NearCopyIndex([j.candidate for j in ranking])
    copies: list[Judgement] = []
    for j in ranking:
        maybe = index.could_copy(j.candidate)
        if any(_near_duplicate(firsts[n], j.candidate, options) for n in maybe):
            copies.append(j)
        else:
            firsts.append(j.candidate)
            index.add(j.candidate)
    return copies


def _batch_message(batch: list[Candidate]) -> str:
    rows = [
        {
            "id": c.id,
            "title": _within(c.title, TITLE_TOKENS),
            "url": _cut(_address(c.url), URL_CHARS),
            "snippet": _within(c.snippet, SNIPPET_TOKENS),
        }
        for c in batch
    ]
    return json.dumps({"candidates": rows}, ensure_ascii=False, separators=(",", ":"))


def _apply_verdicts(judgements: list[Judgement], verdicts: dict[str, Verdict]) -> None:
    for j in judgements:
        verdict = verdicts.get(j.candidate.id)
        if verdict is None:
            continue
        reason = _cut(" ".join(verdict.reason.split()), REASON_CHARS) or "no reason given"
        if verdict.keep:
            j.reasons.append(f"the model judged it relevant: {reason}")
            if j.off_topic:
                j.drop, j.off_topic = None, False
        else:
            j.drop = f"the model judged it not relevant: {reason}"


def _address(url: str) -> str:
    """docs.nats.io/running-a-nats-service for https://docs.nats.io/running-a-nats-service/,
    and a local file by its name."""
    parts = urlsplit(url)
    path = parts.path.rstrip("/")
    if not parts.hostname:
        return path.rsplit("/", 1)[-1] or url
    return parts.hostname.removeprefix("www.") + path


def _within(text: str, tokens: int) -> str:
    """The text on one line, cut (at a word, in Latin text) to about `tokens`."""
    text = " ".join(text.split())
    spent = 0.0
    for end, char in enumerate(text):
        spent += 1.0 if has_cjk(char) else 0.25
        if spent > tokens:
            cut = text[:end]
            space = cut.rfind(" ")
            return (cut[:space] if space > end // 2 else cut).rstrip() + "…"
    return text


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "…"


_SUBSTANCE = (
    re.compile(r"\d[\d.,]*\s*(?:%|x\b|ms\b|mb\b|gb\b|k\b|/s|per\b|times\b)|[$€£¥]\s?\d", re.I),
    re.compile(r"\b(?:than|versus|vs\.?|compared|unlike|whereas)\b|比|相比|优于|不如", re.I),
    re.compile(r"\b(?:19|20)\d\d\b|\d{4}\s*年"),
    re.compile(r"^\s*\|.*\|\s*$", re.M),
)


def _substance(snippet: str) -> int:
    """Pages with figures, comparisons, dates or tables say more than thin ones."""
    return 3 * sum(1 for pattern in _SUBSTANCE if pattern.search(snippet))


def _url_words(url: str) -> str:
    parts = urlsplit(url)
    return re.sub(r"[-_/.]+", " ", f"{parts.hostname or ''} {parts.path}")


def _overlap(plan: Plan, text: str) -> float:
    wanted = set(terms(plan.question)) | {t for o in plan.options for t in terms(o)}
    if not wanted:
        return 0.0
    return len(wanted & set(terms(text))) / len(wanted)


def _freshness(published: str | None, today: date) -> tuple[float, str, bool]:
    if not published:
        return 5.0, "publication date unknown (+5)", False
    try:
        when = date.fromisoformat(published[:10])
    except ValueError:
        return 5.0, f"unreadable publication date {published!r} (+5)", False
    years = (today - when).days / 365.25
    if years > OUTDATED_YEARS:
        return 0.0, f"outdated: published {when.isoformat()}, over {OUTDATED_YEARS} years ago", True
    if years > STALE_YEARS:
        return 0.0, f"stale: published {when.isoformat()} (+0)", False
    points = 15.0 if years <= 2 else 8.0
    return points, f"published {when.isoformat()} (+{points:.0f})", False


def _mark_duplicates(judged: list[Judgement], options: list[str]) -> None:
    """Drop later (lower-scored) near-copies of an earlier candidate."""
    firsts: list[Judgement] = []
    # Only the earlier candidates it could be a copy of (research.stages.near_copies).
    index = NearCopyIndex([j.candidate for j in judged])
    for j in judged:
        if j.drop is not None:
            continue
        maybe = (firsts[n] for n in index.could_copy(j.candidate))
        original = next(
            (f for f in maybe if _near_duplicate(f.candidate, j.candidate, options)), None
        )
        if original is None:
            firsts.append(j)
            index.add(j.candidate)
        else:
            j.drop = f"near-duplicate of {original.candidate.id} ({original.candidate.url})"


def _near_duplicate(a: Candidate, b: Candidate, options: list[str]) -> bool:
    if canonical_url(a.url) == canonical_url(b.url):
        return True
    # "A vs B: licences" and "A vs C: licences" look alike but are different pages, and
    # documentation sites give many pages one title ("JetStream | Docs"): a shared title
    # marks a copy only when the text looks alike too.
    same_subjects = _mentions(a.title, options) == _mentions(b.title, options)
    if same_subjects and _similar(a.title, b.title, 12) and _similar(a.snippet, b.snippet, 0, 0.5):
        return True
    return _similar(a.snippet, b.snippet, 60)


def _mentions(text: str, options: list[str]) -> set[str]:
    return {o for o in options if mentions(text, o)}


def _similar(a: str, b: str, min_len: int, threshold: float = NEAR_DUPLICATE) -> bool:
    a, b = a.strip().lower(), b.strip().lower()
    if len(a) < min_len or len(b) < min_len:
        return False
    # The quick ratios are upper bounds of the ratio, and much cheaper.
    matcher = SequenceMatcher(None, a, b)
    return (
        matcher.real_quick_ratio() >= threshold
        and matcher.quick_ratio() >= threshold
        and matcher.ratio() >= threshold
    )
