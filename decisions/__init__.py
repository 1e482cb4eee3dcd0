"""Scoring and deciding: the decide stage's own logic. Each cell of the score matrix
(scoring), the assessment and its confidence (assessment), the information that would raise
it (missing), a model's lean on each cell where one is configured (model_leans), and the
decision that ties them together (decide)."""
