"""Type stubs of the compiled module (the functions `grundy` wraps)."""

from typing import Any, Callable, Optional, Sequence, Union

import numpy

__version__: str
__commit__: str

class Table:
    """A computed Nim-sequence: G(0..=n) and what the run found."""

    @property
    def values(self) -> numpy.ndarray:
        """G(0..=n): read-only, uint8 or uint16, over the table's memory (its base is the table).
        A run that kept only a prefix and a window raises ValueError: read prefix and window."""
    @property
    def prefix(self) -> Optional[numpy.ndarray]:
        """A run keeping part of its table: G(0..keep_prefix) (uint16); else None."""
    @property
    def window(self) -> Optional[numpy.ndarray]:
        """A run keeping part of its table: G(window_from..=n) (uint16); else None."""
    @property
    def window_from(self) -> Optional[int]: ...
    @property
    def code(self) -> str: ...
    @property
    def n(self) -> int: ...
    @property
    def period(self) -> Optional[int]: ...
    @property
    def preperiod(self) -> Optional[int]: ...
    @property
    def certified(self) -> bool: ...
    @property
    def period_heaps(self) -> int:
        """The heaps the period was looked for in (at least 4096)."""
    @property
    def max_value(self) -> int: ...
    @property
    def first_max_at(self) -> int: ...
    @property
    def rare_mask(self) -> str:
        """Hexadecimal, as the published tables: ``0x1ee``, ``0x6p0``."""
    @property
    def rare_count(self) -> int: ...
    @property
    def last_rare(self) -> Optional[int]: ...
    def milestones(self, at: Union[str, Sequence[int], None] = None) -> dict:
        """The statistics at each heap of ``at`` (``"pow2"``, the default: every
        power of two from 1024 to n; or a list of heaps), each as a run to exactly
        that heap reports them. Columns ``pandas.DataFrame`` takes (n, max_value,
        first_max_at, p_positions, rare_mask, rare_count, last_rare) and
        ``frequencies``: a numpy array per heap."""
    @property
    def filled_from(self) -> Optional[int]: ...
    @property
    def p_positions(self) -> numpy.ndarray:
        """The heaps of value 0 (uint64)."""
    @property
    def backend(self) -> str: ...
    @property
    def engine(self) -> str: ...
    @property
    def seconds(self) -> float: ...
    def __len__(self) -> int: ...

Progress = Optional[Callable[[int, int], Any]]

def octal(code: str, n: int, *, until_periodic: Optional[int] = None,
          min_diff: Optional[int] = None, algorithm: str = "auto", backend: str = "auto",
          fill: bool = True, checkpoint: Optional[str] = None, checkpoint_every: float = 300.0,
          resume: Optional[str] = None, memory: Optional[int] = None,
          folder: Optional[str] = None, keep_prefix: Optional[int] = None,
          keep_window: Optional[int] = None, stats_at: list[int] = [],
          progress: Progress = None) -> Table: ...
def subtraction(subtract: list[int], n: int, *, min_diff: Optional[int] = None,
                backend: str = "auto", checkpoint: Optional[str] = None,
                resume: Optional[str] = None, progress: Progress = None) -> Table: ...
def graph_spec(n: int, edges: list[tuple[int, int]]) -> str: ...
def parse_size(argument: str, text: str) -> int: ...
def graph(code: str, graph: str, misere: bool = False, backend: str = "auto",
          progress: Progress = None) -> dict: ...
def podes(code: str, max_legs: int, max_length: int, misere: bool = False,
          progress: Progress = None) -> dict: ...
def bipodes(code: str, max: int, middle: int, misere: bool = False,
            progress: Progress = None) -> dict: ...
def rect(dims: int, max: int, min_diff: int = 1, misere: bool = False, backend: str = "auto",
         progress: Progress = None) -> dict: ...
def delete_nim(rule: str, heaps: int, max: int, k: Optional[int] = None, misere: bool = False,
               backend: str = "auto", progress: Progress = None) -> dict: ...
def arrows(graph: str, state: Optional[str] = None, trimmed: bool = False, misere: bool = False,
           backend: str = "auto", progress: Progress = None) -> dict: ...
def cycles(graph: str, faces: Optional[str] = None, state: Optional[str] = None,
           backend: str = "auto", progress: Progress = None) -> dict: ...
def hackenbush(graph: str, ground: str, misere: bool = False) -> tuple[int, int]: ...
def survey(codes: list[str], n: int, all: Optional[tuple[str, int]] = None,
           checkpoint: Optional[str] = None,
           resume: Optional[str] = None, progress: Progress = None) -> dict: ...
def misere_survey(codes: list[str], n: int, all: Optional[tuple[str, int]] = None,
                  max_heap: int = 30, seconds: float = 60.0,
                  progress: Progress = None) -> dict: ...
def misere_hunt(codes: list[str], budget: float, dir: Optional[str], max_heap: int = 4096,
                progress: Optional[Callable[..., Any]] = None) -> dict: ...
def play_json(positions: list[list[str]], limit: Optional[int] = None,
              misere: bool = False) -> str: ...
def misere_play_json(words: list[str], limit: Optional[int] = None) -> str: ...
def misere_table(code: Optional[str], subtract: Optional[list[int]], n: int,
                 min_diff: Optional[int] = None, progress: Progress = None) -> dict: ...
def misere_quotient_json(
    code: str, max_heap: int, exact: bool = False, until_solved: bool = False,
    progress: Optional[Callable[[int, int], Any]] = None
) -> str: ...

def hunt(
    codes: list, budget: float, dir: Optional[str], unsolved: bool = False, start: int = 1024,
    max_n: int = 4294967296, backend: str = "cpu", keep_prefix: int = 4194304,
    keep_window: int = 4194304, keep_past: int = 67108864,
    progress: Optional[Callable[..., Any]] = None,
) -> dict: ...
