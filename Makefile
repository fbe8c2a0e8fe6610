# The README's two commands: `make demo` and `make test`.
# Each creates .venv/ and installs the project when that is missing.
PYTHON ?= python3.11
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed

export YOLO_OFFLINE := 1
export YOLO_AUTOINSTALL := False

.PHONY: demo test test-fast venv clean

$(STAMP): pyproject.toml
	@test -x $(PY) || $(PYTHON) -m venv $(VENV) || python3 -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[test]'
	@touch $(STAMP)

venv: $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/handfoot demo

test: $(STAMP)
	$(PY) -m pytest -q

test-fast: $(STAMP)
	$(PY) -m pytest -q -m 'not slow'

clean:
	rm -rf $(VENV) .pytest_cache
