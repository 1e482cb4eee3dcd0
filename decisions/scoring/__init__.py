"""The deterministic score matrix (DESIGN section 2): sources (who counts how much),
judgement (base), status (the maintenance cap), contradictions (consistency and
superseded claims), cell (one cell), totals (an option's total and the ranking).

Every part is on a 0-100 scale and rounded to one decimal:

    score(o, d) = 0.4 * base + 0.3 * strength + 0.2 * consistency + 0.1 * timeliness

A claim counts with its source's standing toward the claim's option
(research.reading.sourcekind): an option's own page is primary (90) for its facts and a
review (60) when it judges itself; a vendor on a rival, or comparing itself with rivals, is
an interested party (30); otherwise primary 90, comparison 60, community 30.

- base: every independent site whose claims take a side (stances, and facts with a
  polarity such as "archived") votes with its mean polarity, lean in [-1, 1], weighted by
  w = its best standing / 100. The raw judgement raw = 50 + 50 * sum(w * lean) / sum(w)
  is shrunk toward 50 by the weight of that evidence, n_eff = sum(w):

      base = 50 + (raw - 50) * n_eff / (n_eff + K),  K = 1

  so one review that calls an option fast gives 50 + 50 * 0.6 / 1.6 = 68.8, not 100.
  base is 50 when no site takes a side.
- the model's lean (LLM mode, decisions.model_leans): the model reads the cell's claims
  and gives its own raw judgement, 0-100, citing the claims it relied on. When every cited
  claim is one the cell counts, it takes the place of raw, and n_eff is the weight of the
  sites behind the cited claims (each site once, at its best standing / 100), so the same
  shrinking applies: a lean of 90 resting on one forum post (n_eff 0.3) gives 59.2. The
  rules' raw is still recorded (raw_base) and named in the cell's notes for comparison;
  the status cap, strength, consistency and timeliness are as below either way.
- flagged claims (a model's claim the deterministic reader reads the other way) count in
  no part of any score.
- status: a statement that the option is archived, deprecated, unmaintained or at end of
  life caps base at 15 and the score at 20, unless a later-dated source says it is active
  again. Strong, recent, consistent evidence that a project is dead must not make it score
  well on maintenance.
- strength = mean over the distinct sources behind the cell of each one's best standing.
- consistency = 100 when two or more independent sites back the cell, 70 when only one
  does, minus 35 for each contradiction that involves one of the cell's claims (on either
  side, or among the other pages siding with one), weighted by what explains it: 1 when
  nothing does ("error", or no cause given), 0.5 when the sources describe other versions or
  setups ("scope") or a change over time whose current side is unknown; 0-100.
- superseded: a contradiction put down to a change over time whose current claim is known
  is settled by the later source. The claims on the other side (its main claim and the
  pages siding with it) describe an earlier state: they count neither in base (nor in the
  status cap) nor against consistency, and the cell lists them as superseded.
- timeliness = mean over the distinct sources of: published within 1 year 100, 2 years 80,
  3 years 60, 5 years 40, older 20, date unknown 50.

A cell with no claims is marked missing and gets no numbers at all.

total(o) = sum(w_d * s(o, d)) / sum(w_d) over ALL the plan's dimensions d, using the user's
weights w_d, where s(o, d) = score(o, d) when the cell has evidence and NEUTRAL = 50 when it
is missing. The 50 is a flat neutral value, not a score: it carries no source strength,
consistency or timeliness, and the cell stays missing. So an option with evidence on one
strong dimension cannot outrank one with solid evidence on all of them by leaving its gaps
out of the mean. total(o) is None when o has no evidence at all.

evidence_share(o) = 100 * sum(w_d over the dimensions where o has evidence) / sum(w_d): how
much of the user's weight rests on evidence; RankedOption.evidence_share, and the report
gives it next to every total ("evidence on 2 of 3 dimensions, 65% of the weight").
"""
