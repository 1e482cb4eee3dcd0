"""A posted outcome measure of ClinicalTrials.gov, as one line a reader can check.

API v2 gives each measure its groups (`OG000`: "Semaglutide"), values per group inside
classes and categories, and analyses between groups. The line keeps the registry's own
figures and words: "Time to first MACE: Semaglutide 6.6 % of participants; Placebo 8.9 %
of participants; Hazard Ratio (HR) 0.74 (95% CI 0.58 to 0.95), p <0.001". Each analysis
is also stated as typed facts of its own (the estimate, its interval, its p-value), each
on a line that names the trial, the outcome and the groups compared.
"""

from __future__ import annotations

from typing import Any

from research.providers.primary.base import items, text

MAX_VALUES = 8  # a measure with a value for every subgroup and visit would never end


def _figure(value: Any, key: str) -> str:
    found = value.get(key) if isinstance(value, dict) else None
    if isinstance(found, bool) or found is None:
        return ""
    return " ".join(str(found).split())


def result_line(measure: dict) -> str:
    """The measure's title, values per group and analyses; '' when it has no values."""
    values = _values(measure)
    if not values:
        return ""
    analyses = [line for analysis in items(measure, "analyses") if (line := _analysis(analysis))]
    title = text(measure, "title") or "Primary outcome"
    if text(measure, "timeFrame"):
        title += f" ({text(measure, 'timeFrame')})"
    return f"{title}: " + "; ".join(values + analyses)


def _values(measure: dict) -> list[str]:
    groups = {text(group, "id"): text(group, "title") for group in items(measure, "groups")}
    unit = text(measure, "unitOfMeasure")
    dispersion = text(measure, "dispersionType").replace("_", " ").lower()
    values: list[str] = []
    for klass in items(measure, "classes"):
        for category in items(klass, "categories"):
            label = text(category, "title") or text(klass, "title")
            for measurement in items(category, "measurements"):
                figure = _figure(measurement, "value")
                if not figure or len(values) >= MAX_VALUES:
                    continue
                group = groups.get(text(measurement, "groupId")) or text(measurement, "groupId")
                said = f"{group}{f' ({label})' if label else ''} {figure}"
                said += f" {unit}" if unit else ""
                said += _spread(measurement, dispersion)
                values.append(said)
    return values


def _spread(measurement: dict, dispersion: str) -> str:
    spread = _figure(measurement, "spread")
    if spread:
        return f" ({dispersion or 'spread'} {spread})"
    lower, upper = _figure(measurement, "lowerLimit"), _figure(measurement, "upperLimit")
    if lower and upper:
        return f" ({dispersion + ' ' if dispersion else ''}{lower} to {upper})"
    return ""


def _analysis(analysis: dict) -> str:
    param, value = text(analysis, "paramType"), _figure(analysis, "paramValue")
    said = f"{param} {value}".strip() if value else ""
    lower, upper = _figure(analysis, "ciLowerLimit"), _figure(analysis, "ciUpperLimit")
    if said and lower and upper:
        pct = _figure(analysis, "ciPctValue")
        said += f" ({pct + '% ' if pct else ''}CI {lower} to {upper})"
    p_value = _figure(analysis, "pValue")
    if p_value:
        said += f"{', ' if said else ''}p {p_value}"
    return said


# (attribute, value, the line that states it)
Stated = tuple[str, str, str]


def analysis_lines(nct: str, measure: dict) -> list[Stated]:
    """The measure's analyses as typed statements: estimate, interval and p-value."""
    groups = {text(group, "id"): text(group, "title") for group in items(measure, "groups")}
    outcome = text(measure, "title") or "the primary outcome"
    stated: list[Stated] = []
    for analysis in items(measure, "analyses"):
        compared = [groups.get(g) or g for g in items(analysis, "groupIds") if isinstance(g, str)]
        about = f"{nct}, {outcome}" + (f" ({' vs '.join(compared)})" if compared else "")
        stated += _estimate(analysis, about)
    return stated


def _estimate(analysis: dict, about: str) -> list[Stated]:
    param = text(analysis, "paramType") or "Estimate"
    value = _figure(analysis, "paramValue")
    lower, upper = _figure(analysis, "ciLowerLimit"), _figure(analysis, "ciUpperLimit")
    p_value = _figure(analysis, "pValue")
    stated: list[Stated] = []
    if value:
        stated.append(("trial_effect", f"{param} {value}", f"{param} of {about}: {value}"))
    if lower and upper:
        pct = _figure(analysis, "ciPctValue")
        interval = f"{pct}% confidence interval" if pct else "Confidence interval"
        stated.append(
            (
                "trial_effect_interval",
                f"{lower} to {upper}",
                f"{interval} of the {param} of {about}: {lower} to {upper}",
            )
        )
    if p_value:
        what = f"p-value of the {param}" if value else "p-value"
        stated.append(("trial_p_value", p_value, f"{what} of {about}: {p_value}"))
    return stated
