"""Querying a folder's index: a query's meaningful terms (CJK runs as bigrams), each sent to
the full-text table that can match it, ranked by the summed bm25, with a snippet."""

from __future__ import annotations

import re
import sqlite3

from research.providers.base import SearchHit

CJK = "\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff"


CJK_RUN = re.compile(f"[{CJK}]+")


# A CJK run, or a Latin word keeping inner . + # - ("node.js", "c++", "c#").
_TOKEN = re.compile(rf"[{CJK}]+|[^\W_{CJK}](?:[^\W{CJK}]|[.+#-](?=[^\W{CJK}]))*[+#]*")


def _wordset(text: str) -> frozenset[str]:
    return frozenset(text.split())


_STOPWORDS = _wordset(
    """a about after again all also am an and any are as at be because been before being
    between both but by can could did do does doing down during each few for from further
    had has have having he her here him his how i if in into is it its itself just me more
    most my no nor not now of off on once only or other our out over own same she should so
    some such than that the their them then there these they this those through to too
    under until up very was we were what when where which while who whom why will with
    would you your vs versus choose choosing pick option options decide deciding"""
)


# Function words that only glue a Chinese question together ("A和B哪个好").
_CJK_STOPWORDS = re.compile(
    "还是|哪个|哪一个|什么|怎么|如何|之间|我们|应该|或者|的|和|与|吗|呢|吧|了"
)


SNIPPET_CHARS = 240


TITLE_WEIGHT = 5.0  # a term in the title says more about the document than one in the body


def query_terms(query: str) -> list[str]:
    """The meaningful terms of a natural-language query, lower-cased and deduplicated."""
    terms: list[str] = []
    for token in _TOKEN.findall(query.lower()):
        if CJK_RUN.fullmatch(token):
            terms.extend(_cjk_terms(token))
        elif len(token) >= 2 and token not in _STOPWORDS:
            terms.append(token)
    return list(dict.fromkeys(terms))


def _cjk_terms(run: str) -> list[str]:
    """Short pieces stay whole words; long runs (no segmenter here) become bigrams."""
    terms: list[str] = []
    for piece in _CJK_STOPWORDS.split(run):
        if 2 <= len(piece) <= 4:
            terms.append(piece)
        elif len(piece) > 4:
            terms.extend(piece[i : i + 2] for i in range(len(piece) - 1))
    return terms


def cjk_bigrams(text: str) -> str:
    """Rewrite each CJK run as space-separated overlapping bigrams for the unicode61 table."""

    def split(match: re.Match[str]) -> str:
        run = match.group(0)
        grams = [run[i : i + 2] for i in range(len(run) - 1)] or [run]
        return " " + " ".join(grams) + " "

    return CJK_RUN.sub(split, text)


def search_index(conn: sqlite3.Connection, terms: list[str], limit: int) -> list[SearchHit]:
    scores: dict[int, float] = {}
    for table, group in (
        ("fts_tri", [t for t in terms if len(t) >= 3]),
        ("fts_bi", [t for t in terms if len(t) < 3]),
    ):
        if group:
            for rowid, score in _ranked(conn, table, group, limit * 4):
                scores[rowid] = scores.get(rowid, 0.0) + score
    best = sorted(scores, key=lambda rowid: scores[rowid])  # bm25: lower is better
    hits: list[SearchHit] = []
    seen_urls: set[str] = set()
    for rowid in best:
        hit = _hit(conn, rowid, terms)
        if hit.url not in seen_urls:  # two copies of one page are one source
            seen_urls.add(hit.url)
            hits.append(hit)
        if len(hits) >= limit:
            break
    return hits


def _ranked(
    conn: sqlite3.Connection, table: str, terms: list[str], limit: int
) -> list[tuple[int, float]]:
    expression = " OR ".join('"' + term.replace('"', '""') + '"' for term in terms)
    sql = (
        f"SELECT rowid, bm25({table}, {TITLE_WEIGHT}, 1.0) FROM {table}"
        f" WHERE {table} MATCH ? ORDER BY 2 LIMIT ?"
    )
    return conn.execute(sql, (expression, limit)).fetchall()


def _hit(conn: sqlite3.Connection, rowid: int, terms: list[str]) -> SearchHit:
    path, url, title, published, body = conn.execute(
        "SELECT path, url, title, published, body FROM docs WHERE id = ?", (rowid,)
    ).fetchone()
    return SearchHit(
        url=url, title=title, snippet=snippet(body, terms), published=published, local_path=path
    )


def snippet(body: str, terms: list[str]) -> str:
    """A window of the body around the first matched term, whitespace collapsed."""
    lowered = body.lower()
    found = [i for i in (lowered.find(t) for t in terms) if i >= 0]
    start = max(0, min(found) - SNIPPET_CHARS // 3) if found else 0
    end = start + SNIPPET_CHARS
    text = " ".join(body[start:end].split())
    return ("…" if start > 0 else "") + text + ("…" if end < len(body) else "")
