"""Everything that trains or measures the shipped networks, apart from the runtime.

`vision/` and `scoring/` never import this package (tests/test_import_contract.py
holds that), so reading a photo never loads a training loop. `eval/` holds the
metrics and the evaluation sets. Progress is reported through plain callables
passed in (`training.progress`), never printed here: the command line decides
how it looks.
"""
