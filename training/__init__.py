"""Everything that trains or measures the shipped networks, apart from the runtime.

One module per network, each ending in `rebuild(...)`, the recipe that
writes its file (`handfoot train*` calls it): `cards` (models/cards.pt, with
`average_weights`), `wilds` (ranks.pt, wilds.pt, foot-wilds.pt), `jokers`,
`joker_words` and `whole_cards`; `reader_net` and `round_photos` hold what
the small readers share, `eval/` the metrics and the evaluation sets.
`vision/` and `scoring/` never import this package
(tests/test_import_contract.py), and progress goes through plain callables
passed in (`training.progress`): the recipes print nothing themselves.
"""
