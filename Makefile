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

migrate: $(STAMP) $(MO)
	$(BIN)/python manage.py migrate --noinput

run: migrate
	$(BIN)/python manage.py serve

$(DEV_STAMP): $(STAMP) requirements-dev.txt
	$(BIN)/python -m pip install --quiet -r requirements-dev.txt
	touch $(DEV_STAMP)

# The suite runs on TEST_WORKERS processes at once (pytest-xdist), then the few tests marked
# `serial`, which time themselves, one at a time. `make test TEST_WORKERS=0` runs it all in
# one process; PYTEST_ARGS go to both passes (a pass with no test to run is not a failure).
TEST_WORKERS ?= 3
test: $(DEV_STAMP) $(MO)
	$(BIN)/python -m pytest -n $(TEST_WORKERS) -m "not serial" $(PYTEST_ARGS)
	$(BIN)/python -m pytest -m serial $(PYTEST_ARGS) || [ $$? -eq 5 ]

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
