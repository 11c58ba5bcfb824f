"""Sprague-Grundy tables in bulk: Nim-sequences as numpy arrays, games on
graphs, tuple and edge games, surveys and winning moves.

Every run releases the GIL (two threads compute two tables at once) and
says what the command would say on stderr to the ``grundy`` logger (at
INFO). Ctrl-C stops a run at its next check (a tenth of a second for a
sequence), saves its checkpoint whole and raises ``KeyboardInterrupt``.
Bad input raises ``ValueError``; a run that will not fit raises
``MemoryError`` before it starts.

>>> import grundy
>>> grundy.octal("0.07", n=100).period
34
"""

from __future__ import annotations

import json
import operator
import os
from typing import Any, Callable, Iterable, Optional, Sequence, Union

import numpy

# Mesa's device-select Vulkan layer prints "error: XDG_RUNTIME_DIR is
# invalid or not set" on machines without a display session whenever an
# adapter is looked for; grundy orders adapters itself, so it is switched
# off there (as the command does) before the extension opens Vulkan.
if not os.path.isabs(os.environ.get("XDG_RUNTIME_DIR", "")):
    os.environ.setdefault("NODEVICE_SELECT", "1")

from . import _grundy  # noqa: E402
from ._grundy import Table, __commit__, __version__

__all__ = [
    "Table",
    "__commit__",
    "__version__",
    "arrows",
    "bipodes",
    "cycles",
    "delete_nim",
    "graph",
    "hackenbush",
    "hunt",
    "misere_quotient",
    "octal",
    "open_raw",
    "play",
    "play_sum",
    "podes",
    "read_csv",
    "rect",
    "subtraction",
    "survey",
]

Progress = Optional[Callable[[int, int], Any]]
Size = Union[int, str, None]


def _count(name: str, value: Any, least: int = 0) -> int:
    """``value`` (an int, numpy's included) of at least ``least``, or an
    error naming the argument (as the command names its flag)."""
    try:
        if isinstance(value, bool):
            raise TypeError
        number = operator.index(value)
    except TypeError:
        raise TypeError(f"{name} must be an int, got {type(value).__name__}") from None
    if number < least:
        raise ValueError(f"{name} must be at least {least}, got {number}")
    return number


def _size(name: str, value: Size) -> Optional[int]:
    """Bytes from an int or a size string as the command reads it
    (``"16M"``, ``"8G"``, ``"1.5GiB"``)."""
    if value is None:
        return None
    if isinstance(value, str):
        return _grundy.parse_size(name, value)
    return _count(name, value)


def _rows(columns: dict) -> dict:
    """Columns with each 2-D one (a row of parameters per table row) as a
    list of tuples, so that ``pandas.DataFrame(columns)`` takes them;
    ``numpy.array(columns[name])`` gives the 2-D array back."""
    return {
        name: [tuple(int(x) for x in row) for row in column]
        if getattr(column, "ndim", 1) == 2
        else column
        for name, column in columns.items()
    }


def octal(
    code: str,
    n: int,
    *,
    until_periodic: Optional[int] = None,
    min_diff: Optional[int] = None,
    algorithm: str = "auto",
    backend: str = "auto",
    fill: bool = True,
    checkpoint: Union[str, os.PathLike, None] = None,
    checkpoint_every: float = 300.0,
    resume: Union[str, os.PathLike, None] = None,
    memory: Size = None,
    folder: Union[str, os.PathLike, None] = None,
    keep_prefix: Optional[int] = None,
    keep_window: Optional[int] = None,
    stats_at: Optional[Iterable[int]] = None,
    misere: bool = False,
    progress: Progress = None,
) -> Table:
    """The Nim-sequence G(0..=n) of a take-and-break game.

    ``code`` is CGSuite's notation, as ``grundy octal`` reads it: ``"0.07"``,
    ``"4!.0"`` (Grundy's game), ``"0.[3]"``, ``"0.{2,3}"``.
    ``until_periodic=MAX`` doubles ``n`` until a period is found, up to heap
    MAX. ``fill`` takes the heaps past a certified period from it.
    ``checkpoint``/``resume`` name a checkpoint file as on the command line
    (saved every ``checkpoint_every`` seconds, 300 as there); ``memory``
    (bytes, or a size such as ``"16M"`` or ``"8G"`` as ``--memory`` takes)
    caps the bytes the table may take in memory; past it the
    values go to a file in ``folder`` (default: the current one). ``progress``
    is called as ``progress(done, total)`` from the calling thread (total 0:
    not known). ``backend`` is ``"auto"``, ``"gpu"`` or ``"cpu"``.

    The result's ``.values`` is a read-only numpy array (uint8, or uint16
    when a value passes 255) over the table's memory, with ``.period``,
    ``.preperiod``, ``.certified``, ``.rare_mask`` (hexadecimal, ``0x1ee``),
    ``.rare_count``, ``.last_rare``, ``.max_value``, ``.first_max_at``,
    ``.p_positions``, ``.backend``, ``.engine`` and ``.seconds`` beside it.

    ``keep_prefix=P, keep_window=W`` (either alone: both) keep only the
    values of heaps below P and of the last W heaps, as ``--keep-prefix``
    and ``--keep-window`` do: runs toward the records in megabytes. The
    table then has ``.prefix`` and ``.window`` (numpy arrays, the window's
    first heap ``.window_from``) instead of ``.values``, and ``.milestones``
    at every power of two from 1024, at the heaps of ``stats_at`` and at n.
    A heap that needs a value not kept raises ``RuntimeError`` naming the
    sizes that would have done.

    ``misere=True`` gives the table under misère play (the last player to
    move loses) as ``grundy octal --misere`` does, as a dict of columns
    (``pandas.DataFrame`` takes them): ``n``, ``g`` (normal play),
    ``g_misere``, ``outcome_misere`` (``"P"``: the player to move loses),
    ``genus`` (as Winning Ways writes it, ``"1^031"``) and ``gammas`` (a
    tuple γ0 … γ6 a row), with ``convention``, ``method`` (``"linear"``
    for codes that never split a heap, ``"blocked"`` for those that also
    take without bound, valued in blocks on ``backend``'s choice, the card
    or the CPU, ``"sums"`` for those valued over whole sums), ``backend``
    (where the rows were computed), ``period`` and ``preperiod`` (of the truncated genus,
    certified; ``None`` if none showed), ``stopped_at`` (the first heap
    whose sums did not fit, or ``None``) and ``sums_bound`` (for
    ``"sums"``: the sums the search can meet at most, counted before it
    starts). The other engines' settings (algorithm, checkpoints, kept
    tables) are normal play's and are refused.

    >>> t = octal("0.07", n=100)
    >>> (t.period, t.preperiod, t.certified)
    (34, 53, True)
    >>> [h for h, o in enumerate(octal("0.77", n=12, misere=True)["outcome_misere"]) if o == "P"]
    [1, 4, 9, 12]
    """
    if misere:
        _refuse_with_misere(
            until_periodic=until_periodic is not None,
            algorithm=algorithm != "auto",
            fill=not fill,
            checkpoint=checkpoint is not None,
            resume=resume is not None,
            memory=memory is not None,
            folder=folder is not None,
            keep_prefix=keep_prefix is not None,
            keep_window=keep_window is not None,
            stats_at=stats_at is not None,
        )
        found = _grundy.misere_table(
            code, None, _count("n", n), min_diff=min_diff, backend=backend, progress=progress
        )
        return _rows(found)
    return _grundy.octal(
        code,
        _count("n", n),
        until_periodic=None if until_periodic is None else _count("until_periodic", until_periodic),
        min_diff=min_diff,
        algorithm=algorithm,
        backend=backend,
        fill=fill,
        checkpoint=_path(checkpoint),
        checkpoint_every=checkpoint_every,
        resume=_path(resume),
        memory=_size("memory", memory),
        folder=_path(folder),
        keep_prefix=None if keep_prefix is None else _count("keep_prefix", keep_prefix),
        keep_window=None if keep_window is None else _count("keep_window", keep_window),
        stats_at=[_count("stats_at", h) for h in (stats_at or [])],
        progress=progress,
    )


def subtraction(
    subtract: Iterable[int],
    n: int,
    *,
    min_diff: Optional[int] = None,
    backend: str = "auto",
    checkpoint: Union[str, os.PathLike, None] = None,
    resume: Union[str, os.PathLike, None] = None,
    misere: bool = False,
    progress: Progress = None,
) -> Table:
    """The Nim-sequence of the subtraction game whose moves take a number in
    ``subtract`` from a heap (``subtraction([1, 3, 4], n=100)``).
    ``misere=True``: the table under misère play, columns as ``octal``'s
    with ``misere=True``."""
    if misere:
        _refuse_with_misere(
            backend=backend == "gpu", checkpoint=checkpoint is not None, resume=resume is not None
        )
        found = _grundy.misere_table(
            None, [int(x) for x in subtract], _count("n", n), min_diff=min_diff, progress=progress
        )
        return _rows(found)
    return _grundy.subtraction(
        list(subtract),
        _count("n", n),
        min_diff=min_diff,
        backend=backend,
        checkpoint=_path(checkpoint),
        resume=_path(resume),
        progress=progress,
    )


def _refuse_with_misere(**settings: bool) -> None:
    """Refuses, naming it, a normal-play engine's setting given with
    ``misere=True``: each keyword says whether it was set."""
    for name, given in settings.items():
        if given:
            raise ValueError(
                f"misere=True with {name}: misère tables come back whole, valued apart from the normal engines; "
                f"expected {name} left at its default"
            )


# Columns whose values are keys or labels, not numbers, in the CSVs
# grundy writes: pandas alone reads the code 0.60 as the number 0.6.
_TEXT_COLUMNS = {"code": str, "rare_mask": str}
# Columns that are empty where there is nothing to say (no period found).
_MAYBE_COLUMNS = ("period", "preperiod", "last_rare")


def read_csv(path: Union[str, os.PathLike], **kwargs: Any) -> Any:
    """A CSV ``grundy`` wrote (a survey, a merged survey or part, a table) as
    a ``pandas.DataFrame`` with every key as the text it was written as:
    ``code`` stays ``"0.60"`` (``pandas.read_csv`` alone makes it the number
    0.6, and ``"0.10"`` 0.1) and ``rare_mask`` ``"0x1ee"``; ``period``,
    ``preperiod`` and ``last_rare``, empty where there is none, are
    nullable integers. A part's first line (``# grundy survey part: …``)
    is skipped. Other keyword arguments go to ``pandas.read_csv``.

    Without this module: ``pandas.read_csv(path, dtype={"code": str})``;
    in R, ``read.csv(path, colClasses = c(code = "character"))``."""
    import pandas

    with open(path, encoding="utf-8") as f:
        first = f.readline()
    skip = 1 if first.startswith("#") else 0
    frame = pandas.read_csv(path, skiprows=skip, dtype=_TEXT_COLUMNS, **kwargs)
    for column in _MAYBE_COLUMNS:
        if column in frame.columns:
            frame[column] = frame[column].astype("Int64")
    return frame


def open_raw(path: Union[str, os.PathLike]) -> numpy.memmap:
    """A table written with ``--format raw``, as a read-only memory-mapped
    uint16 array (nothing is read until it is used). The header's fields
    are the array's ``header`` attribute (a dict: code, min_diff, first,
    count)."""
    with open(path, "rb") as f:
        line = f.readline()
    text = line.decode("ascii", errors="replace").strip()
    magic = "grundy u16le v1"
    if not text.startswith(magic):
        raise ValueError(f"{os.fspath(path)}: expected a raw table (a first line '{magic} ...')")
    fields = dict(f.split("=", 1) for f in text[len(magic):].split() if "=" in f)
    count = int(fields.get("count", "-1"))
    size = os.path.getsize(path) - len(line)
    if count < 0 or size != 2 * count:
        raise ValueError(
            f"{os.fspath(path)}: the header says {count} values but {size} bytes follow"
        )
    if count == 0:
        array = numpy.zeros(0, dtype="<u2")
    else:
        array = numpy.memmap(path, dtype="<u2", mode="r", offset=len(line), shape=(count,))
    array.header = fields  # type: ignore[attr-defined]
    return array


def _path(path: Union[str, os.PathLike, None]) -> Optional[str]:
    return None if path is None else os.fspath(path)


def _graph_spec(g: Any) -> str:
    """A graph spec string from a spec (``"grid:3x4"``), a graph6 string or
    bytes, an edge list, or any object with ``.nodes()`` and ``.edges()``
    (networkx)."""
    if isinstance(g, str):
        # As `--graph` reads it: a family spec (`grid:3x5`), `graph6:…`,
        # or bare graph6; anything else is refused with the command's words.
        return g.strip()
    if isinstance(g, bytes):
        return "graph6:" + g.decode("ascii").strip()
    if hasattr(g, "nodes") and hasattr(g, "edges"):
        nodes = list(g.nodes())
        index = {v: i for i, v in enumerate(nodes)}
        edges = [(index[u], index[v]) for u, v in g.edges()]
        return _grundy.graph_spec(len(nodes), edges)
    edges = [(int(u), int(v)) for u, v in g]
    n = 1 + max((max(e) for e in edges), default=-1)
    return _grundy.graph_spec(n, edges)


def graph(
    code: str,
    g: Any,
    *,
    moves: bool = False,
    misere: bool = False,
    backend: str = "auto",
    progress: Progress = None,
) -> dict:
    """G of the octal game ``code`` played on a graph (``grundy graph``).

    ``g`` is a spec (``"grid:3x4"``, ``"pode:1,2,2"``), a graph6 string
    (``"Bw"``), an edge list ``[(0, 1), (1, 2)]``, or a networkx graph. Returns a dict with
    ``value``, ``outcome`` ("P" or "N"), ``convention``, ``positions``, ``solver``,
    ``backend``, ``seconds``; with ``moves=True`` also ``winning_moves``
    as ``play`` lists them. With ``misere=True`` the last player to move
    loses and ``value`` is the misère nim value (0: the player to move
    loses); ``moves`` is normal play's alone for now.
    """
    if misere and moves:
        raise ValueError("moves=True lists normal play's winning moves; expected misere=False")
    spec = _graph_spec(g)
    found = _grundy.graph(code, spec, misere=bool(misere), backend=backend, progress=progress)
    if moves:
        found["winning_moves"] = play("graph", code, spec)["winning_moves"]
    return found


def podes(
    code: str,
    max_legs: int = 10,
    max_length: int = 2,
    *,
    misere: bool = False,
    progress: Progress = None,
) -> dict:
    """G of every k-pode with up to ``max_legs`` legs of lengths
    1..=max_length (``grundy podes``, with its defaults 10 and 2): columns
    ``legs`` (a tuple a row, counting the legs of each length) and ``g``,
    and ``convention``; ``pandas.DataFrame`` takes the columns. With
    ``misere=True``, misère nim values (codes whose digits are at most 3)."""
    found = _grundy.podes(
        code,
        _count("max_legs", max_legs),
        _count("max_length", max_length, 1),
        misere=bool(misere),
        progress=progress,
    )
    return _rows(found)


def bipodes(
    code: str, max: int = 6, middle: int = 1, *, misere: bool = False, progress: Progress = None
) -> dict:
    """G of every bipode up to ``max`` (``grundy bipodes``, with its
    defaults 6 and 1): columns ``bipode`` (a tuple of four leg lengths a
    row), ``g`` and ``convention``; with ``misere=True``, misère nim values."""
    found = _grundy.bipodes(
        code, _count("max", max), _count("middle", middle), misere=bool(misere), progress=progress
    )
    return _rows(found)


def rect(
    dims: int,
    max: int,
    *,
    min_diff: int = 1,
    misere: bool = False,
    backend: str = "auto",
    progress: Progress = None,
) -> dict:
    """Grundy's game on boxes with ``dims`` sides up to ``max`` (``grundy
    rect``): columns ``sizes`` (a tuple a box), ``g`` and ``convention``.
    With ``misere=True`` the last player to cut loses: each shape is valued
    by search over whole sums of pieces (small ``max``)."""
    found = _grundy.rect(
        _count("dims", dims),
        _count("max", max),
        min_diff=min_diff,
        misere=bool(misere),
        backend=backend,
        progress=progress,
    )
    return _rows(found)


def delete_nim(
    rule: str,
    heaps: int,
    max: int,
    *,
    k: Optional[int] = None,
    misere: bool = False,
    backend: str = "auto",
    progress: Progress = None,
) -> dict:
    """Delete Nim under ``rule`` (delete, vdn, abo, nmth, half, kdelete,
    single) on ``heaps`` heaps up to ``max``: columns ``sizes`` (a tuple a
    position) and ``g``, and ``convention``. With ``misere=True`` the last
    player to move loses and ``g`` holds misère nim values (0: the player
    to move loses)."""
    found = _grundy.delete_nim(
        rule,
        _count("heaps", heaps),
        _count("max", max),
        k=k,
        misere=bool(misere),
        backend=backend,
        progress=progress,
    )
    return _rows(found)


def arrows(
    g: Any,
    *,
    state: Optional[str] = None,
    trimmed: bool = False,
    misere: bool = False,
    backend: str = "auto",
    progress: Progress = None,
) -> dict:
    """The Game of Arrows (or its trimmed variant) on a graph, from a state
    such as ``"0>1"``: a dict with ``value``, ``outcome``, ``states``,
    ``solver``, ``backend``, ``seconds``, ``convention``. With
    ``misere=True`` the last player to mark loses (the dense table, up to
    20 edges)."""
    return _grundy.arrows(
        _graph_spec(g),
        state=state,
        trimmed=trimmed,
        misere=bool(misere),
        backend=backend,
        progress=progress,
    )


def cycles(
    g: Any,
    *,
    faces: Union[str, os.PathLike, None] = None,
    state: Optional[str] = None,
    backend: str = "auto",
    progress: Progress = None,
) -> dict:
    """The Game of Cycles on a graph, its faces read from the file
    ``faces``: a dict as ``arrows`` gives (value 0 or 1: the outcome)."""
    return _grundy.cycles(
        _graph_spec(g), faces=_path(faces), state=state, backend=backend, progress=progress
    )


def hackenbush(g: Any, ground: Union[str, Iterable[int]] = "0", *, misere: bool = False) -> int:
    """Green Hackenbush's value on a graph grounded at the vertices
    ``ground``; with ``misere=True`` the last player to cut loses and the
    value is the misère nim value (0: the player to move loses)."""
    if not isinstance(ground, str):
        ground = ",".join(str(int(v)) for v in ground)
    value, _positions = _grundy.hackenbush(_graph_spec(g), ground, misere=bool(misere))
    return value


def survey(
    codes: Union[Sequence[str], None] = None,
    *,
    n: int,
    prefix: Optional[str] = None,
    digits: Optional[int] = None,
    checkpoint: Union[str, os.PathLike, None] = None,
    resume: Union[str, os.PathLike, None] = None,
    misere: bool = False,
    max_heap: Optional[int] = None,
    seconds: Optional[float] = None,
    progress: Progress = None,
) -> dict:
    """One row per code (``grundy survey``), as columns ``pandas.DataFrame``
    takes: the codes given, or every code ``prefix.d1..dK`` with ``digits``
    digits 0-7.

    ``misere=True`` surveys misère play (``grundy survey --misere``): each
    code's misère quotient of heaps up to ``max_heap`` (default 30), at most
    ``seconds`` (default 60) a code, stopped where the periodicity theorem
    solves it; and for codes that never split a heap, the period of the
    truncated genus over heaps 0..=n. Columns: code, splits, heaps, order,
    growth, solved_period, solved_start, checked_to, stopped, genus_period,
    genus_preperiod, seconds."""
    every = None
    if codes is None:
        if prefix is None or digits is None:
            raise ValueError("survey: expected codes, or prefix= and digits=")
        every = (prefix, digits)
    if isinstance(codes, str):
        codes = [codes]
    if misere:
        if checkpoint is not None or resume is not None:
            raise ValueError(
                "survey: checkpoint= and resume= are for normal play; a misère "
                "survey takes seconds= a code instead"
            )
        return _grundy.misere_survey(
            list(codes or []),
            _count("n", n),
            all=every,
            max_heap=_count("max_heap", 30 if max_heap is None else max_heap, 1),
            seconds=60.0 if seconds is None else float(seconds),
            progress=progress,
        )
    if max_heap is not None or seconds is not None:
        raise ValueError("survey: max_heap= and seconds= are for misère play: add misere=True")
    return _grundy.survey(
        list(codes or []),
        _count("n", n),
        all=every,
        checkpoint=_path(checkpoint),
        resume=_path(resume),
        progress=progress,
    )


def hunt(
    codes: Union[Sequence[str], None] = None,
    *,
    budget: float,
    dir: Union[str, os.PathLike],
    unsolved: bool = False,
    start: int = 1024,
    max_n: int = 1 << 32,
    backend: str = "cpu",
    keep_prefix: int = 1 << 22,
    keep_window: int = 1 << 22,
    keep_past: int = 1 << 26,
    misere: bool = False,
    max_heap: Optional[int] = None,
    progress: Progress = None,
) -> dict:
    """Hunts periods (``grundy hunt``): each code, and with ``unsolved=True``
    the published unsolved octal games, doubling N from ``start`` until its
    period is certified, N passes ``max_n`` or ``budget`` seconds (over every
    hunt in ``dir``) are spent. ``dir`` keeps each code's checkpoint, row and
    frequency file, so a later hunt with a larger budget goes on from there.
    One row per code as columns ``pandas.DataFrame`` takes, ``frequencies``
    a numpy array per code (heaps 0..=n of each value). Runs past
    ``keep_past`` heaps keep only ``keep_prefix`` and ``keep_window`` heaps
    of their table (codes whose runs take rare values), so the checkpoints
    stop growing; a code that needs more ends ``"not-kept"``.

    ``misere=True`` hunts misère quotients (``grundy hunt --misere``): each
    code's quotient grows heap by heap until the periodicity theorem solves
    it, it reaches ``max_heap`` (default 4096) or its budget is spent; ``dir``
    keeps it (verified when read back), so a later hunt goes on from it.
    Columns: code, heaps, order, growth, solved_period, solved_start, end
    (solved, max-heap, budget or memory), seconds, resumed_from."""
    if isinstance(codes, str):
        codes = [codes]
    if misere:
        normal_only = {
            "unsolved": unsolved, "start": start != 1024, "max_n": max_n != 1 << 32,
            "backend": backend != "cpu", "keep_prefix": keep_prefix != 1 << 22,
            "keep_window": keep_window != 1 << 22, "keep_past": keep_past != 1 << 26,
        }
        given = [name for name, changed in normal_only.items() if changed]
        if given:
            raise ValueError(
                f"hunt: {', '.join(n + '=' for n in given)} are for normal play; "
                "a misère hunt takes codes, budget=, dir= and max_heap="
            )
        return _grundy.misere_hunt(
            list(codes or []),
            float(budget),
            _path(dir),
            max_heap=_count("max_heap", 4096 if max_heap is None else max_heap, 1),
            progress=progress,
        )
    if max_heap is not None:
        raise ValueError("hunt: max_heap= is for misère play: add misere=True")
    return _grundy.hunt(
        list(codes or []),
        float(budget),
        _path(dir),
        unsolved=bool(unsolved),
        start=_count("start", start, 1),
        max_n=_count("max_n", max_n, 1),
        backend=backend,
        keep_prefix=_count("keep_prefix", keep_prefix),
        keep_window=_count("keep_window", keep_window),
        keep_past=_count("keep_past", keep_past),
        progress=progress,
    )


def _words(game: str, args: Sequence[Any], kwargs: dict) -> list:
    """A position as the words ``play`` reads: the game, then its arguments."""
    game = game.replace("-", "_")

    def text(x: Any) -> str:
        if isinstance(x, (list, tuple)):
            return ",".join(str(int(v)) for v in x)
        return str(x)

    if game == "arrows":
        g, = args
        return ["arrows", _graph_spec(g), kwargs.get("state") or "", "trimmed" if kwargs.get("trimmed") else ""]
    if game == "cycles":
        g, = args
        return ["cycles", _graph_spec(g), kwargs.get("state") or "", _path(kwargs.get("faces")) or ""]
    if game == "graph":
        code, g = args
        return ["graph", code, _graph_spec(g)]
    if game == "hackenbush":
        g, ground = args
        return ["hackenbush", _graph_spec(g), text(ground)]
    if game == "rect":
        boxes, = args
        return ["rect", text(boxes), str(kwargs.get("min_diff", 1))]
    if game == "delete_nim":
        rule, heaps = args
        k = kwargs.get("k")
        return ["delete_nim", rule, text(heaps)] + ([str(k)] if k is not None else [])
    return [game] + [text(a) for a in args]


def play(game: str, *args: Any, limit: Optional[int] = None, **kwargs: Any) -> dict:
    """Who wins a position, and every winning move (``grundy play``).

    ``play("octal", "0.07", [5, 7, 9])``, ``play("subtraction", [1, 3], [6])``,
    ``play("graph", "0.33", g)``, ``play("arrows", g, state="0>1")``,
    ``play("rect", "3x5,2x7")``, ``play("delete_nim", "delete", [0, 5])``,
    ``play("hackenbush", g, [0])``, ``play("cycles", g, faces=path)``.
    Returns the report as a dict: components, nim_sum, outcome,
    winning_moves (the first ``limit``; None: all) and their total.
    ``misere=True`` (every game but cycles, alone: not in ``play_sum``)
    plays misère
    play: the position's ``misere_value`` is computed whole (heaps from
    their misère quotient or a search over the sum; a graph's components
    together from a table of its vertex subsets), and the winning moves are
    those to misère value 0.
    """
    if kwargs.pop("misere", False):
        words = _words(game, args, kwargs)
        return json.loads(_grundy.misere_play_json(words, limit))
    return json.loads(_grundy.play_json([_words(game, args, kwargs)], limit))


def misere_quotient(
    code: str,
    max_heap: int,
    *,
    exact: bool = False,
    until_solved: bool = False,
    progress: Progress = None,
) -> dict:
    """The misère quotient of a code's heaps up to ``max_heap`` (``grundy
    quotient``; Plambeck and Siegel, "Misère quotients for impartial games").

    Returns a dict: ``order``; ``generators`` (each ``name`` and ``heap``);
    ``relations`` as ``[u, v]`` pairs (u = v); ``elements`` by name;
    ``p_portion``; ``pretending`` (the element of each heap 0..max_heap);
    ``orders`` (the order for each heap size) and ``growth``. A sum of heaps
    is a P-position exactly when the product of its heaps' elements lies in
    the P-portion. ``exact=True`` values every sum in a box of heap counts
    (a few heaps). Either way the quotient has been checked against every
    sum of those heaps. ``solved`` is the pretending function's period
    (``start``, ``period``, ``checked_to``) where the periodicity theorem
    proves the quotient that of every heap, else ``None``;
    ``until_solved=True`` stops at the first heap where it does.

    >>> q = misere_quotient("0.75", 12)
    >>> q["order"], q["p_portion"]
    (8, ['a', 'b^2'])
    >>> misere_quotient("0.75", 200, until_solved=True)["solved"]
    {'start': 8, 'period': 2, 'checked_to': 21}
    """
    max_heap = _count("max_heap", max_heap, 1)
    found = _grundy.misere_quotient_json(code, max_heap, exact, until_solved, progress)
    return json.loads(found)


def play_sum(
    positions: Sequence[Any], *, limit: Optional[int] = None, misere: bool = False
) -> dict:
    """A sum of positions of different games: each a tuple as ``play``
    takes its arguments, e.g. ``[("octal", "0.07", [5, 9]), ("rect", "3x5")]``,
    or a string as ``grundy play sum`` takes it (``"octal 0.07 5,9"``).
    ``misere=True`` plays the sum under misère play (``grundy play sum
    --misere``): it has no nim-sum, so ``misere_value`` is searched over the
    whole sum, and the winning moves are those to misère value 0."""
    words = []
    for position in positions:
        if isinstance(position, str):
            words.append(position.split())
            continue
        game, *rest = position
        kwargs = rest.pop() if rest and isinstance(rest[-1], dict) else {}
        words.append(_words(game, rest, kwargs))
    if len(words) == 1:
        raise ValueError("play_sum: expected two or more positions (play takes one)")
    return json.loads(_grundy.play_json(words, limit, misere))
