"""Cross-validate with a model: it reads the key points the deterministic reader read, and
judges the sentence pairs the reader's contradiction finder could not settle.

The model never sees whole pages and never retypes a quote. One message numbers
POINTS_PER_PAGE key points for each page read, at most MAX_POINTS however many pages the
limits let the reader read, each cut to TEXT_TOKENS around its option and grouped by option
and dimension, and lists up to MAX_PAIRS pairs of them by number. The model answers with
those numbers: a claim or a side of a contradiction it yields carries its key point's own
stored quote and offset.

Which pairs: the strongest few the reader already calls contradictions (CONFIRM), then the
reader's near misses (research.reading.near_conflicts). Which key points: the
pairs', then, one option and dimension at a time (fewest claims first), one page at a time,
those of pages the model labelled in deep-read first (its option, dimension and stance are
on them already), then those with the most substance. The model may also name other pairs
among them that contradict (EXTRA_PAIRS): the point said in other words, an option's brand
name, a loose date against an exact one are what word overlap cannot see.

The reader stays the cross-check (research.reading.reader_check): a stance the model reads
from a quote that the reader reads the other way, or a typed value it reads differently,
is kept with a `flag` and neither counted nor weighed. What the model leaves out, and every
call that fails, leaves the reader's result as it was.

The parts: what the model is sent (sending), what it answers (answers), the claims it reads
(review, whose ModelReview the stage is given) and its verdicts on contradictions
(contradictions).
"""

from research.stages.llm_crosscheck.review import ModelReview
from research.stages.llm_crosscheck.sending import MAX_POINTS

__all__ = ["MAX_POINTS", "ModelReview"]
