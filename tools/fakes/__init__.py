"""Real local servers that stand in for the outside world in tests and benchmarks: an
OpenAI-compatible model endpoint (llm_stub) and a small web with a SearXNG API (localweb)."""
