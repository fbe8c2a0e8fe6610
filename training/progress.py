"""How training and evaluation report progress: plain callables passed in, so nothing in `training` prints.

`progress(label)` gives the wrapper of one phase's items (the command line's
shows them as a progress bar on stderr); `say(line)` gives one line of news
(counts, each epoch's figure, the file written; the command line echoes it).
The defaults show nothing, for tests and scripts.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable

Phase = Callable[[Iterable], Iterable]  # yields a phase's items as they are used
Progress = Callable[[str], Phase]  # progress(label): the wrapper of the phase so named
Say = Callable[[str], None]  # say(line): one line of news


def unshown(label: str) -> Phase:
    """A phase shown nowhere: its items as they come."""
    return iter


def silent(line: str) -> None:
    """News told nowhere."""
