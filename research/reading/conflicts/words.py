"""Which words say what a sentence is about, for telling whether two sentences are on one
point: lightly stemmed, without the words every decision text uses or the options' names."""

from __future__ import annotations

from research.reading.text import has_cjk, option_names, terms

# Words too common in decision writing to make two sentences "about the same point".
GENERIC = frozenset(
    """also more most much many very can could may might will would use used using uses
    one two new good better best like just only still even well make makes made way
    each other such some any all than then there here when where while which who whom
    been being have has had was were into onto over under about after before because
    both either neither same different however although though support supports supported
    based provide provides provided offer offers offered feature features option options
    time times way system systems data users user people team teams project projects
    want need needs needed get gets getting see seen say says said know known
    not nor never none without yes its it's you your they them their our out off
    really actually generally usually often less few lot lots thing things why how
    group groups patient patients participant participants study studies trial trials
    result results week weeks month months year years treatment treated compared
    baseline mean respectively rate rates per vs versus total overall average
    con que para por una del los las como mais não uma dos das les des une est pour pas
    qui dans sur avec cette elle der die das und ist nicht mit für ein eine""".split()
)


def topic_words(quote: str, options: list[str]) -> frozenset[str]:
    """The words that say what a sentence is about, lightly stemmed ("vaults" = "vault");
    the options' own names say which option, not which point, so they do not count."""
    names = {stem(t) for o in options for name in option_names(o) for t in terms(name)}
    words = (stem(t) for t in terms(quote) if t not in GENERIC and not t[0].isdigit())
    return frozenset(w for w in words if w not in names and _meaningful(w))


# Characters that make a CJK bigram grammar rather than content ("的是", "一个").
_FUNCTION_CHARS = frozenset(
    "的了是在和与也都就而及或其这那一个中上为以对于等有着被把让从到很更最将可"
)


def _meaningful(word: str) -> bool:
    if has_cjk(word):
        return len(word) == 2 and not (set(word) & _FUNCTION_CHARS)
    return len(word) > 2


def stem(word: str) -> str:
    if has_cjk(word) or len(word) <= 4:
        return word
    for suffix in ("ies", "es", "s"):
        if word.endswith(suffix) and not word.endswith("ss"):
            return word[: -len(suffix)] + ("y" if suffix == "ies" else "")
    return word
