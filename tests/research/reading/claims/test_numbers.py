from __future__ import annotations

import pytest

from research.reading.claims import parse_number, quantity_facts
from research.reading.claims.numbers import number_range


def read(sentence: str) -> dict[str, str]:
    return {f.attribute: f.value for f in quantity_facts(sentence)}


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("Loamdb pushes 20K messages per second.", {"throughput (msg/s)": "20000"}),
        (
            "Tessera can do 8–11 million messages per second.",
            {"throughput (msg/s)": "8000000-11000000"},
        ),
        ("Quillsync serves 10k requests per second.", {"throughput": "10000"}),
        ("Loamdb sustains 200 MB/s of writes.", {"throughput (MB/s)": "200"}),
        ("Tessera handles 5 msg/s on a laptop.", {"throughput (msg/s)": "5"}),
        ("河图引擎每秒处理二十万条消息。", {"throughput (msg/s)": "200000"}),
        ("Quillsync has 60k stars on GitHub.", {"stars": "60000"}),
        ("青鸟流程在 GitHub 上有 2.3 万星。", {"stars": "23000"}),
        ("The Tessera image is just 3MB.", {"size (MB)": "3"}),
        ("Loamdb idles at 6 MiB of memory.", {"memory (MB)": "6"}),
        ("The Quillsync runtime is about 40KB.", {"size (KB)": "40"}),
        ("Tessera takes 100ms to render a long list.", {"render time (ms)": "100"}),
        # Counts in words, and sentences that mix words and figures.
        ("Loamdb has twenty-one core maintainers.", {"core team": "21"}),
        (
            "Quillsync has 1,200 contributors and forty core maintainers.",
            {"contributors": "1200", "core team": "40"},
        ),
        ("Tessera has three hundred and twelve contributors.", {"contributors": "312"}),
        ("Someone said none of the 300 contributors left.", {"contributors": "300"}),
        ("Nobody has counted the stars, not one.", {}),
    ],
)
def test_counts_sizes_and_rates_keep_their_scale_and_unit(sentence, expected):
    assert read(sentence) == expected


@pytest.mark.parametrize(
    ("sentence", "expected"),
    [
        ("The Loamdb list price is $935.77 per month.", {"price per month": "935.77"}),
        ("Quillsync Premium is $10/yr.", {"yearly price": "10"}),
        ("Tessera Teams costs €3 per user per month.", {"price per seat per month (EUR)": "3"}),
        ("Quillsync costs $7.99 per user/month.", {"price per seat per month": "7.99"}),
        ("Loamdb is $968.52 for a monthly supply.", {"price per month": "968.52"}),
        (
            "Loamdb needs 54 times more memory than Tessera and 27 times more than Quillsync.",
            {"multiple (memory vs Tessera)": "54", "multiple (memory vs Quillsync)": "27"},
        ),
        ("Loamdb uses 2.7x the memory of Quillsync.", {"multiple (memory vs Quillsync)": "2.7"}),
        (
            "38% of professional Python developers now use Quillsync.",
            {"percentage (share of professional python developers)": "38"},
        ),
        (
            "Tessera brought a 20% reduction in build time.",
            {"percentage (reduction in build time)": "20"},
        ),
        (
            "Loamdex lowered the rate of nonfatal stroke (HR 0.74, 95% CI 0.51–1.08).",
            {"hazard ratio (nonfatal stroke)": "0.74"},
        ),
    ],
)
def test_prices_multiples_percentages_and_hazard_ratios_are_typed(sentence, expected):
    assert read(sentence) == expected


@pytest.mark.parametrize(
    "sentence",
    [
        "千兆网络下河图引擎的延迟很低。",
        "青鸟流程每秒能处理数百万条消息。",
        "青鸟流程的贡献零星。",
        "河图引擎获得了五星好评。",
        "The Loamdb core maintainers since 2019 are busy.",
        "Quillsync messages stay well below 1MB.",
        "Loamdex cut HbA1c by 1.3% and 1.6% respectively.",
        "Loamdex lowered HbA1c by −1.4% (HR 0.74, 95% CI 0.51–1.08, p < 0.001).",
        "Quillsync is 10x better with the managed plan.",
        "Tessera is 12% faster now.",
        "90% of patients have a co-pay of $0 to $25 per month for Loamdex.",
        "18% of patients reported nausea on Loamdex.",
        "Set the Quillsync timeout to 500 ms.",
    ],
)
def test_numbers_that_cannot_be_typed_are_left_alone(sentence):
    assert read(sentence) == {}


def test_ranges_and_unicode_minus_parse():
    assert parse_number("8000000-11000000") == 9_500_000
    assert number_range("8000000-11000000") == (8_000_000, 11_000_000)
    assert parse_number("−1.4") == -1.4
    assert parse_number("百万") == 1_000_000
