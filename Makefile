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

# The demo has run when `handfoot demo` exits 3 too: that status says the cards as read break the
# rules (the findings above name them), which is what the demo is there to show.
demo: $(STAMP)
	@$(VENV)/bin/handfoot demo; status=$$?; \
	if [ $$status -eq 3 ]; then echo "(exit status 3: the cards as read break the rules; the findings above say how)"; \
	elif [ $$status -ne 0 ]; then exit $$status; fi

# Lint and format are checked first (ruff, configured in pyproject.toml): `ruff format .` mends the format.
test: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/ruff format --check .
	$(PY) -m pytest -q

test-fast: $(STAMP)
	$(PY) -m pytest -q -m 'not slow'

clean:
	rm -rf $(VENV) .pytest_cache
