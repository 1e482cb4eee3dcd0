"""Benchmark harnesses for `manage.py bench`: queued runs through real workers
(queued_runs) and model tokens per stage (model_tokens)."""
