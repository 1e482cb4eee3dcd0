"""Tools around the product, never imported by it: the quality measures (quality/), the
benchmark harnesses (bench/) and the fakes that tests and benchmarks serve on 127.0.0.1
(fakes/). Management commands that need them import them when they run."""
