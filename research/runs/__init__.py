"""The run engine: everything that moves a run from its first stage to its report.

    rows        the database rows that mirror a run's manifest
    spec        what a stage is to the engine (StageSpec) and how it fails (StageError)
    runners/    one runner per stage: load its inputs, call the stage, write its outputs
    registry    the stage registry (the table runners.SPECS) and whether output is sound
    manifest    the manifest's state machine: every status change, gated and synced
    execute     running one stage of one run, with its lock and heartbeat
    flow        what runs next, for the Celery tasks and the in-process CLI alike
    tasks       the Celery tasks; worker: the worker's signals (both in CELERY_IMPORTS)
    broker      the stage messages waiting in Redis
    recovery    judging a run that stopped moving, and moving it on; loop: the thread
                that does so in every worker
    repair      damaged artifacts and manifests

Each module imports only the ones listed above it (recovery uses tasks to send a stage
again). Nothing here imports research.services, the surfaces' entry point above it.
"""
