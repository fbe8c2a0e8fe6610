"""Hand and Foot scoring: cards + rule preset + round facts -> round results.

Modules: classes (the 23 detection classes), cards (class -> card kind by deck
family), rules (Rules and its parser), melds (judging a side's table), engine
(score_side, score_round, card_value), game (score_game, game_totals), model
(the dataclasses). No file I/O here and no vision imports.
"""
