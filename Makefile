# Verdict: `make run` starts the app on 127.0.0.1:8000, `make test` runs the whole suite.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
DEV_STAMP := $(VENV)/.installed-dev

MO := locale/zh_Hans/LC_MESSAGES/django.mo

.PHONY: run test lint fix bench bench-llm migrate

$(STAMP): requirements.txt
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -r requirements.txt
	touch $(STAMP)

# The Chinese translations, compiled with Babel (in requirements.txt): no GNU gettext needed.
$(MO): locale/zh_Hans/LC_MESSAGES/django.po $(STAMP)
	$(BIN)/python -m research.i18n.build

# The project's modules compiled ahead, as pip compiles its packages, so that a process
# (a worker, the command line) starts without compiling them, even where Python does not
# write bytecode itself (PYTHONDONTWRITEBYTECODE). Only changed modules are compiled again.
migrate: $(STAMP) $(MO)
	$(BIN)/python -m compileall -q research decisions reports tools manage.py
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py serve

$(DEV_STAMP): $(STAMP) requirements-dev.txt
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(DEV_STAMP)

# The suite runs on TEST_WORKERS processes at once (pytest-xdist), then the few tests marked
# `serial`, which time themselves, one at a time. `make test TEST_WORKERS=0` runs it all in
# one process; PYTEST_ARGS go to every pass (a pass with no test to run is not a failure).
TEST_WORKERS ?= 3
# The tests that lean on the database (the run engine's rows, recovery, accounts, the run
# pages) then run a second time on PostgreSQL, on a cluster the tests start themselves;
# without PostgreSQL's server programs they are skipped, saying why (tests/postgres.py).
POSTGRES_TESTS := tests/research/test_database.py tests/research/test_services.py \
	tests/research/test_accounts.py tests/research/test_selectors.py \
	tests/research/test_reask.py tests/research/runs/test_recovery.py \
	tests/research/runs/test_worker.py tests/research/web/test_run_page.py \
	tests/research/web/test_runs_list.py tests/research/web/test_ownership.py

test: $(DEV_STAMP) $(MO)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not serial" $(PYTEST_ARGS)
	$(BIN)/python -m pytest -m serial $(PYTEST_ARGS) || [ $$? -eq 5 ]
	VERDICT_TEST_DATABASE=postgres $(BIN)/python -m pytest -p no:cacheprovider -m "not serial" \
		$(PYTEST_ARGS) $(POSTGRES_TESTS)

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .

fix: $(STAMP)
	$(BIN)/ruff check --fix .
	$(BIN)/ruff format .

bench: migrate
	$(BIN)/python manage.py bench

bench-llm: migrate
	$(BIN)/python manage.py bench --llm
