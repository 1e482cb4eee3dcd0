"""Contradictions between statements: typed facts that cannot both hold (facts), whole
sentences that disagree on one point (sentences, with kinds, pairs, sides and words), and
both as round 4 records (contradictions)."""
