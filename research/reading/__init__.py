"""The reader: a sentence or table row and the question in, readings out (DESIGN section 2,
"Reading"). Deep-read and cross-validate use it; it knows nothing of them."""
