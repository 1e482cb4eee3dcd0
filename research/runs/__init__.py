"""The run engine: everything that moves a run from its first stage to its report.

    rows        the database rows that mirror a run's manifest
    spec        what a stage is to the engine (StageSpec) and how it fails (StageError)
    runners/    one runner per stage: load its inputs, call the stage, write its outputs
    registry    the stage registry (the table runners.SPECS) and whether output is sound
    manifest    the manifest's state machine: every status change, gated and synced
    execute     running one stage of one run, with its lock and heartbeat
    chord       a deep-read spread over workers: its parts, each under its own lock, merged
    flow        what runs next, for the Celery tasks and the in-process CLI alike
    tasks       the Celery tasks
    broker      the stage messages waiting in Redis
    recovery    judging a run that stopped moving, and moving it on
    loop        the recovery loop, a thread in every worker
    repair      damaged artifacts and manifests
    redecide    deciding a finished run again from its files: other weights, corrections
    worker      the worker's signals (tasks and worker are in CELERY_IMPORTS)
    workers     whether a worker is running to take a run (asked before one is queued)

Each module imports only the ones listed above it (recovery sends a stage again through
tasks). Nothing here imports research.services, the surfaces' entry point above it.
"""
