"""The generated pages the benchmarks serve on a local web: short pages for timing the
stages, and pages longer than a run reads, for counting model tokens at full limits."""

from __future__ import annotations

OPTIONS = ("Alderstream", "Brightwell")
TOPICS = ("licence", "maintenance", "cost")
ANGLES = (
    "review",
    "field notes",
    "migration diary",
    "postmortem",
    "FAQ",
    "deep dive",
    "benchmark write-up",
    "buyer's guide",
    "teardown",
    "retrospective",
    "primer",
    "audit",
)


# Two of these in each title, so that no two titles look alike to the filter's near-copy
# rule: pages 12 apart share their option, topic and angle.
NICKNAMES = (
    "harbour lantern meadow copper violin saddle orchard thistle quarry ember falcon glacier "
    "hammock juniper kettle lagoon marble nectar obsidian pepper quiver raven saffron tundra "
    "umber velvet willow yarrow zephyr anchor bramble cinder dune fjord garnet heron ivory "
    "jasper kelp"
).split()


def page_title(n: int) -> str:
    first, second = NICKNAMES[n % 39], NICKNAMES[(3 * n + 17) % 39]
    return f"{OPTIONS[n % 2]} {TOPICS[n % 3]} {ANGLES[n % len(ANGLES)]}: {first} and {second} #{n}"


LONG_PAGES = 60  # more than the 50 candidates a run takes by default
LONG_SENTENCES = (
    "{o} is released under the {lic} licence, and version 3.{n}.{i} kept those terms.",
    "{o} shipped release 3.{n}.{i} on 2026-0{m}-1{d}, with {c} contributors merging fixes.",
    "The hosted plan of {o} costs ${price} per seat each month in the {i}th pricing tier.",
    "In our tests {o} was fast and reliable on documents of {c} thousand lines.",
    "Reviewers found the {o} documentation for plugin {i} confusing and slow to navigate.",
    "The {o} maintainers answered issue {n}{i} within {d} days, which teams praised.",
)


def long_page(n: int, chars: int) -> str:
    """A page longer than `chars`, the characters a page may be read to."""
    option = OPTIONS[n % 2]
    licence = ("MIT", "Apache-2.0", "BSL-1.1")[n % 3]
    sentences: list[str] = []
    while sum(len(s) for s in sentences) <= chars:
        i = len(sentences)
        sentences.append(
            LONG_SENTENCES[i % len(LONG_SENTENCES)].format(
                o=option, lic=licence, n=n, i=i, m=1 + i % 9, d=i % 9, c=10 + i, price=5 + i % 20
            )
        )
    body = "".join(f"<p>{s}</p>" for s in sentences)
    return (
        f"<html><head><title>{page_title(n)}</title>"
        f'<meta property="article:published_time" content="2026-06-{1 + n % 28:02d}">'
        f"</head><body><article><h1>{page_title(n)}</h1>{body}</article></body></html>"
    )


def page_html(n: int) -> str:
    option = OPTIONS[n % 2]
    topic = TOPICS[n % 3]
    body = " ".join(
        f"<p>{option} section {i}: its {topic} story is covered in detail here, with release "
        f"3.{n}.{i} shipped on 2026-0{1 + i % 9}-1{i % 9} and about {10 + i} contributors "
        f"commenting on {topic}.</p>"
        for i in range(12)
    )
    return (
        f"<html><head><title>{option} {topic} review {n}</title>"
        f'<meta property="article:published_time" content="2026-06-{1 + n % 28:02d}">'
        f"</head><body><article><h1>{option} {topic} review {n}</h1>{body}</article>"
        "</body></html>"
    )


def results(query: str, urls: list[str]) -> list[dict]:
    """Every page, starting at a place the query picks: the queries of a run find more
    distinct pages between them than any one search returns."""
    start = sum(query.encode()) % len(urls)
    order = list(range(start, len(urls))) + list(range(start))
    return [
        {
            "url": urls[n],
            "title": page_title(n),
            "content": f"{OPTIONS[n % 2]} {TOPICS[n % 3]}: notes from page {n}",
            "publishedDate": "2026-06-01",
        }
        for n in order
    ]
