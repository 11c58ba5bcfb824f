"""The Python module against the command line and the literature: values,
zero-copy arrays, the GIL released, Ctrl-C, errors."""

import csv
import functools
import io
import json
import os
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import numpy
import pytest

import grundy

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def cli():
    """The `grundy` command built by `cargo build --release` (or GRUNDY_BIN)."""
    binary = Path(os.environ.get("GRUNDY_BIN", ROOT / "target" / "release" / "grundy"))
    if not binary.exists():
        pytest.fail(f"{binary} is missing: run `cargo build --release` first (or set GRUNDY_BIN)")

    def run(*args):
        out = subprocess.run([str(binary), *args], capture_output=True, text=True, check=True)
        return out.stdout

    return run


def cli_values(cli, *args):
    rows = csv.DictReader(io.StringIO(cli(*args, "--backend", "cpu", "-q", "--out", "-")))
    return numpy.array([int(r["g"]) for r in rows])


def test_dawsons_kayles_has_period_34_from_53():
    t = grundy.octal("0.07", n=100)
    assert (t.period, t.preperiod, t.certified) == (34, 53, True)
    # Dawson's Kayles: 0 0 1 1 2 0 3 1 1 0 3 3 2 2 4 0 5 2 2 3 ...
    assert list(t.values[:20]) == [0, 0, 1, 1, 2, 0, 3, 1, 1, 0, 3, 3, 2, 2, 4, 0, 5, 2, 2, 3]
    assert len(t) == 101 and t.n == 100


@pytest.mark.parametrize("code, n", [("0.07", 3000), ("0.6", 5000), ("4!.0", 5000), ("0.137", 2000)])
def test_sequences_match_the_command_line(cli, code, n):
    t = grundy.octal(code, n=n, backend="cpu")
    numpy.testing.assert_array_equal(t.values, cli_values(cli, "octal", code, "-n", str(n)))
    summary = json.loads(cli("octal", code, "-n", str(n), "--backend", "cpu", "--json"))
    assert t.max_value == summary["max_value"]
    assert t.rare_mask == summary["rare_mask"]
    assert len(t.p_positions) == summary["p_positions"]
    assert list(t.p_positions[:5]) == summary["first_p_positions"][:5]


def test_subtraction_1_3_4_has_period_7():
    t = grundy.subtraction([1, 3, 4], n=50)
    assert list(t.values[:14]) == [0, 1, 0, 1, 2, 3, 2] * 2
    assert t.period == 7


def test_values_are_the_tables_memory_without_a_copy():
    small = grundy.octal("0.07", n=1000)
    wide = grundy.octal("0.6", n=1 << 17)
    assert small.values.dtype == numpy.uint8
    assert wide.values.dtype == numpy.uint16 and wide.max_value > 255
    for t in (small, wide):
        a, b = t.values, t.values
        assert a.base is t and b.base is t
        assert a.__array_interface__["data"][0] == b.__array_interface__["data"][0]
        assert not a.flags.writeable
        with pytest.raises(ValueError):
            a[0] = 1


def test_two_threads_compute_at_once():
    """While one thread computes, the main thread runs Python code: the GIL
    is released for the run."""
    span = {}

    def work():
        span["start"] = time.perf_counter()
        grundy.octal("4!.0", n=1 << 21, backend="cpu")
        span["end"] = time.perf_counter()

    worker = threading.Thread(target=work)
    ticks = []
    worker.start()
    while worker.is_alive():
        ticks.append(time.perf_counter())
        time.sleep(0.001)
    inside = [t for t in ticks if span["start"] < t < span["end"]]
    assert len(inside) > 20, f"{len(inside)} ticks while the run took {span['end'] - span['start']:.2f} s"


def test_ctrl_c_raises_keyboard_interrupt_and_leaves_a_checkpoint(tmp_path):
    path = tmp_path / "grundy.ckpt"
    n = 1 << 22
    # Python's own Ctrl-C handler, which it leaves out when started with
    # SIGINT ignored (as a shell script's background job is).
    previous = signal.signal(signal.SIGINT, signal.default_int_handler)
    # SIGINT from outside the process half a second in, as a terminal's
    # Ctrl-C comes.
    sender = subprocess.Popen(["sh", "-c", f"sleep 0.5; kill -INT {os.getpid()}"])
    started = time.perf_counter()
    try:
        with pytest.raises(KeyboardInterrupt):
            try:
                grundy.octal("4!.0", n=n, backend="cpu", checkpoint=path, checkpoint_every=60)
            finally:
                # A signal that came only after the run is raised here.
                sender.wait()
    finally:
        signal.signal(signal.SIGINT, previous)
    assert time.perf_counter() - started < 0.5 + 1.0, "interrupted within a second"
    assert path.exists()
    resumed = grundy.octal("4!.0", n=n, backend="cpu", resume=path)
    straight = grundy.octal("4!.0", n=n, backend="cpu")
    numpy.testing.assert_array_equal(resumed.values, straight.values)


def test_progress_is_reported_from_the_calling_thread():
    calls = []
    main = threading.get_ident()
    grundy.octal("4!.0", n=1 << 20, backend="cpu", progress=lambda done, total: calls.append((done, total, threading.get_ident())))
    assert calls, "progress was called"
    assert all(thread == main for _, _, thread in calls)
    done = [d for d, _, _ in calls]
    assert done == sorted(done) and done[-1] >= 1 << 20


def test_bad_input_raises_value_error_with_the_commands_message():
    with pytest.raises(ValueError, match=r"missing '\]'"):
        grundy.octal("0.[3", n=10)
    with pytest.raises(ValueError, match="expected 'auto', 'gpu' or 'cpu'"):
        grundy.octal("0.07", n=10, backend="fast")
    with pytest.raises(ValueError, match="rule 'nope'"):
        grundy.delete_nim("nope", 2, 5)


def test_a_refusal_names_the_keyword_argument_not_the_flag(tmp_path):
    # The library marks the setting; the module words it as its own keyword.
    with pytest.raises(ValueError) as refused:
        grundy.delete_nim("vdn", 3, 4)
    said = str(refused.value)
    assert said.startswith("heaps=3: the vdn rule is a two-heap game; expected heaps=2"), said
    assert "--" not in said and "\ue000" not in said, said
    with pytest.raises(ValueError) as refused:
        grundy.octal("0.6", n=10, resume=str(tmp_path / "none.ck"))
    said = str(refused.value)
    assert said.startswith(f"resume='{tmp_path / 'none.ck'}': "), said


def test_a_run_that_will_not_fit_raises_memory_error_before_it_starts():
    started = time.perf_counter()
    with pytest.raises(MemoryError):
        grundy.octal("0.6", n=(1 << 40) - 1, backend="cpu")
    assert time.perf_counter() - started < 5


def test_graphs_from_specs_edge_lists_and_networkx(cli):
    for spec in ["grid:2x3", "path:7", "pode:1,2,2", "cycle:5"]:
        printed = json.loads(cli("graph", "0.33", "--graph", spec, "--json"))
        found = grundy.graph("0.33", spec, backend="cpu")
        assert (found["value"], found["outcome"]) == (printed["g"], printed["outcome"]), spec
    # 0.33 on a path of n vertices is the octal game 0.33 on a heap of n.
    heaps = grundy.octal("0.33", n=12).values
    for n in range(1, 12):
        edges = [(i, i + 1) for i in range(n - 1)]
        assert grundy.graph("0.33", edges if edges else "path:1")["value"] == heaps[n]
    # The same triangle as a graph6 string, bytes and a spec.
    triangle = grundy.graph("0.33", "cycle:3")["value"]
    assert grundy.graph("0.33", "Bw")["value"] == grundy.graph("0.33", b"Bw")["value"] == triangle
    nx = pytest.importorskip("networkx")
    assert grundy.graph("0.33", nx.path_graph(9))["value"] == heaps[9]
    star = grundy.graph("0.33", nx.star_graph(3), moves=True)
    assert star["value"] == grundy.graph("0.33", "pode:1,1,1")["value"]
    assert "winning_moves" in star


def test_pode_and_tuple_tables(cli):
    podes = grundy.podes("0.33", 2, 2)
    rows = list(csv.DictReader(io.StringIO(cli("podes", "0.33", "--max-legs", "2", "--max-length", "2", "--out", "-"))))
    assert [int(r["g"]) for r in rows] == list(podes["g"])
    assert numpy.array(podes["legs"]).shape == (len(rows), 2)
    rect = grundy.rect(2, 6)
    rows = list(csv.DictReader(io.StringIO(cli("rect", "--dims", "2", "--max", "6", "--out", "-"))))
    assert {(int(r["a"]), int(r["b"])): int(r["g"]) for r in rows} == {
        tuple(int(x) for x in s): int(g) for s, g in zip(rect["sizes"], rect["g"])
    }
    # Delete Nim: G(x, y) is the 2-adic valuation of (x OR y) + 1.
    table = grundy.delete_nim("delete", 2, 12)
    for (x, y), g in zip(table["sizes"], table["g"]):
        v = (int(x) | int(y)) + 1
        assert g == (v & -v).bit_length() - 1


def test_edge_games_and_hackenbush(cli):
    printed = json.loads(cli("arrows", "--graph", "pode:2,2,2", "--trimmed", "--json"))
    found = grundy.arrows("pode:2,2,2", trimmed=True)
    assert found["value"] == printed["g"]
    for state in ["", "0>1", "0>1,1>2"]:
        args = ["cycles", "--graph", "grid:2x3", "--json"] + (["--state", state] if state else [])
        printed = json.loads(cli(*args))
        found = grundy.cycles("grid:2x3", state=state or None)
        assert found["outcome"] == printed["outcome"] and found["states"] == printed["states"], state
    # A stalk of k edges is a nim-heap of k; a grounded triangle is *1.
    assert grundy.hackenbush("path:5", [0]) == 4
    assert grundy.hackenbush("cycle:3", "0") == 1


def test_misere_play_is_the_commands_and_named(cli):
    """misere=True gives what --misere prints, and says which convention."""
    table = grundy.delete_nim("vdn", 2, 6, misere=True)
    rows = list(csv.DictReader(io.StringIO(
        cli("delete-nim", "--rule", "vdn", "--max", "6", "--misere", "--out", "-"))))
    assert [int(r["g_misere"]) for r in rows] == list(table["g"])
    assert table["convention"] == "misere"
    assert grundy.delete_nim("vdn", 2, 6)["convention"] == "normal"
    for spec in ["path:5", "pode:1,2,2", "grid:2x3"]:
        printed = json.loads(cli("graph", "0.137", "--graph", spec, "--misere", "--json"))
        found = grundy.graph("0.137", spec, misere=True)
        assert (found["value"], found["convention"]) == (printed["g"], "misere"), spec
    podes = grundy.podes("0.33", 4, 2, misere=True)
    rows = list(csv.DictReader(io.StringIO(
        cli("podes", "0.33", "--max-legs", "4", "--misere", "--out", "-"))))
    assert [int(r["g_misere"]) for r in rows] == list(podes["g"])
    rect = grundy.rect(2, 5, misere=True)
    rows = list(csv.DictReader(io.StringIO(cli("rect", "--max", "5", "--misere", "--out", "-"))))
    assert [int(r["g_misere"]) for r in rows] == list(rect["g"])
    printed = json.loads(cli("rect", "--max", "5", "--misere", "--json"))
    assert rect["sums_searched"] == printed["sums_searched"] > 0
    found = grundy.arrows("pode:2,2,3", misere=True)
    printed = json.loads(cli("arrows", "--graph", "pode:2,2,3", "--misere", "--json"))
    assert found["value"] == printed["g"] and found["convention"] == "misere"
    # stalks of 1, 2 and 3 edges on one ground: misère Nim's P-position
    assert grundy.hackenbush("pode:1,2,3", "0", misere=True) == 0
    with pytest.raises(ValueError, match="misere=True"):
        grundy.podes("0.137", 3, 2, misere=True)
    played = grundy.play("octal", "0.77", [2, 3, 5], misere=True)
    printed = json.loads(cli("play", "octal", "0.77", "2,3,5", "--misere", "--json"))
    assert played == printed and played["convention"] == "misere"
    assert grundy.play("subtraction", [1, 2], [1, 1, 1], misere=True)["outcome"] == "P"
    # a code that splits: searched over whole sums, bounded before the search as the command says
    dawson = grundy.octal("0.07", n=40, misere=True)
    printed = json.loads(cli("octal", "0.07", "-n", "40", "--misere", "--json"))
    assert dawson["method"] == "sums" and dawson["sums_bound"] == printed["sums_bound"] == 28 * 37338
    assert grundy.octal("0.33", n=40, misere=True)["sums_bound"] is None
    # a sum of different games under misère play: searched whole, as the command does
    summed = grundy.play_sum([("octal", "0.[3]", [1]), ("rect", "1x3")], misere=True)
    printed = json.loads(cli("play", "sum", "--misere", "octal 0.[3] 1", "rect 1x3", "--json"))
    assert summed == printed
    assert (summed["nim_sum"], summed["outcome"], summed["misere_value"]) == (0, "N", 1)


def test_survey_columns_agree_with_each_codes_sequence():
    rows = grundy.survey(["0.07", "0.137", "0.6"], n=2000)
    assert list(rows["code"]) == ["0.07", "0.137", "0.6"]
    for code, period, max_value in zip(rows["code"], rows["period"], rows["max_value"]):
        t = grundy.octal(code, n=2000)
        assert (period, max_value) == (t.period, t.max_value), code
    every = grundy.survey(prefix="0", digits=1, n=200)
    assert list(every["code"]) == [f"0.{d}" for d in range(8)]


def test_play_reports_what_the_command_prints(cli):
    for words, (game, *args), kwargs in [
        (["octal", "0.07", "5,7,9"], ("octal", "0.07", [5, 7, 9]), {}),
        (["rect", "3x5,2x7"], ("rect", "3x5,2x7"), {}),
        (["delete-nim", "--rule", "delete", "3,5"], ("delete_nim", "delete", [3, 5]), {}),
        (["arrows", "pode:2,2,2", "--trimmed", "--state", "0>1"], ("arrows", "pode:2,2,2"), {"trimmed": True, "state": "0>1"}),
    ]:
        printed = json.loads(cli("play", *words, "--json", "--limit", "all"))
        assert grundy.play(game, *args, **kwargs) == printed, words
    printed = json.loads(cli("play", "sum", "octal 0.07 5,9", "rect 3x5", "--json", "--limit", "2"))
    assert grundy.play_sum([("octal", "0.07", [5, 9]), ("rect", "3x5")], limit=2) == printed


def test_a_raw_table_opens_as_a_memory_mapped_array(cli, tmp_path):
    path = tmp_path / "t.raw"
    cli("octal", "0.6", "-n", "70000", "--format", "raw", "--out", str(path), "-q")
    array = grundy.open_raw(path)
    assert isinstance(array, numpy.memmap) and array.header["code"] == "0.6"
    numpy.testing.assert_array_equal(array, grundy.octal("0.6", n=70000).values)


def test_the_docs_python_examples_print_what_they_show():
    """The `>>>` examples of README.md and docs/python.md, run as doctests."""
    import doctest

    for name in ["README.md", "docs/python.md"]:
        text = (ROOT / name).read_text()
        blocks = [b.split("```", 1)[0] for b in text.split("```python\n")[1:]]
        examples = "\n".join(b for b in blocks if b.startswith(">>>"))
        assert examples, name
        test = doctest.DocTestParser().get_doctest(examples, {}, name, name, 0)
        runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
        runner.run(test)
        assert runner.failures == 0 and runner.tries >= 3, name


def test_the_modules_own_examples_run():
    import doctest

    failures, tries = doctest.testmod(grundy, optionflags=doctest.NORMALIZE_WHITESPACE)
    assert failures == 0 and tries >= 2


def test_notices_go_to_the_grundy_logger_and_a_file_backed_table_is_whole(tmp_path, caplog):
    caplog.set_level("INFO", logger="grundy")
    t = grundy.octal("0.6", n=1 << 18, backend="cpu", memory=1 << 16, folder=tmp_path)
    said = [r.getMessage() for r in caplog.records if r.name == "grundy"]
    assert any("go to a file" in m for m in said), said
    numpy.testing.assert_array_equal(t.values, grundy.octal("0.6", n=1 << 18, backend="cpu").values)


def test_repr_is_the_commands_summary(cli):
    for code, n in [("0.07", "5000"), ("0.6", "3000")]:
        printed = cli("octal", code, "-n", n, "--backend", "cpu").splitlines()
        shown = repr(grundy.octal(code, n=int(n), backend="cpu")).splitlines()
        # Every line but the time taken.
        strip = lambda lines: [l.rsplit(",", 1)[0] if l.startswith("backend") else l for l in lines]
        assert strip(shown) == strip(printed[: len(shown)]), code


def test_a_short_soak_of_mixed_threaded_stopped_and_resumed_calls():
    """scripts/python-soak.py at 60 calls on 4 threads: every result equal
    to the one computed alone, every stopped run resumed from its
    checkpoint, no call stuck (the full soak's figures: BENCHMARKS.md)."""
    import sys

    script = ROOT / "scripts" / "python-soak.py"
    out = subprocess.run([sys.executable, str(script), "60", "4"], capture_output=True, text=True)
    assert out.returncode == 0, out.stdout + out.stderr
    report = json.loads(out.stdout)
    assert report["wrong"] == [] and sum(report["outcomes"].values()) == 60, report
    assert any(k.startswith("interrupted: stopped") for k in report["outcomes"]), report


def test_csv_files_load_in_pandas_with_their_keys_as_written(cli, tmp_path):
    pandas = pytest.importorskip("pandas")
    path = tmp_path / "survey.csv"
    cli("survey", "--digits", "2", "-n", "300", "-q", "--out", str(path))
    written = [r["code"] for r in csv.DictReader(open(path))]
    assert "0.60" in written and "0.10" in written
    # pandas alone turns the codes into numbers: the reason for read_csv
    assert 0.6 in list(pandas.read_csv(path)["code"])
    frame = grundy.read_csv(path)
    assert list(frame["code"]) == written
    assert all(m.startswith("0x") for m in frame["rare_mask"])
    assert str(frame["period"].dtype) == "Int64" and frame["max_value"].dtype.kind == "i"
    # the summary's figures, per row, for a code as the user writes it
    row = frame.set_index("code").loc["0.60"]
    one = json.loads(cli("octal", "0.60", "-n", "300", "--backend", "cpu", "--json"))
    assert (row["max_value"], row["rare_mask"]) == (one["max_value"], one["rare_mask"])
    # the hint the docs give works without the module too
    assert list(pandas.read_csv(path, dtype={"code": str})["code"]) == written


def test_arguments_and_defaults_are_the_commands(cli, tmp_path):
    import inspect

    with pytest.raises(TypeError):
        grundy.octal("0.07")  # -n is required by the command too
    assert inspect.signature(grundy.octal).parameters["checkpoint_every"].default == 300
    with pytest.raises(ValueError, match="n must be at least 0, got -5"):
        grundy.octal("0.07", n=-5)
    with pytest.raises(TypeError, match="n must be an int"):
        grundy.octal("0.07", n="100")
    assert len(grundy.octal("0.07", n=numpy.int64(100))) == 101
    small = grundy.octal("0.6", n=1 << 16, backend="cpu", memory="16K", folder=tmp_path)
    numpy.testing.assert_array_equal(small.values, grundy.octal("0.6", n=1 << 16).values)
    with pytest.raises(ValueError, match="memory='lots'"):
        grundy.octal("0.6", n=100, memory="lots")
    summary = json.loads(cli("octal", "4!.0", "-n", "5000", "--json"))
    t = grundy.octal("4!.0", n=5000)
    assert (t.first_max_at, t.max_value, t.rare_mask) == (
        summary["first_max_at"], summary["max_value"], summary["rare_mask"]
    )
    # podes' defaults are the command's (--max-legs 10 --max-length 2)
    printed = list(csv.DictReader(io.StringIO(cli("podes", "0.33", "--max-legs", "6", "--out", "-"))))
    found = grundy.podes("0.33", 6)
    assert [int(r["g"]) for r in printed] == list(found["g"])
    pandas = pytest.importorskip("pandas")
    frame = pandas.DataFrame(found)
    assert len(frame) == len(printed) and frame["legs"][0] == (0, 0)
    assert len(pandas.DataFrame(grundy.rect(2, 5))) == 15


def test_graph_strings_and_positions_read_as_the_command_reads_them(cli):
    with pytest.raises(ValueError, match="'hello': not a family:ARGS spec"):
        grundy.graph("0.33", "hello")
    assert grundy.graph("0.33", "Bw")["value"] == grundy.graph("0.33", "cycle:3")["value"]
    as_strings = grundy.play_sum(["octal 0.07 5,9", "rect 3x5"], limit=2)
    assert as_strings == grundy.play_sum([("octal", "0.07", [5, 9]), ("rect", "3x5")], limit=2)


def test_looking_for_a_gpu_without_a_display_session_prints_no_driver_complaint():
    env = {k: v for k, v in os.environ.items() if k not in ("XDG_RUNTIME_DIR", "NODEVICE_SELECT")}
    code = "import grundy; grundy.octal('0.07', 300, algorithm='naive', backend='gpu')"
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    if out.returncode != 0 and "no GPU adapter" in out.stderr:
        if os.environ.get("GRUNDY_REQUIRE_GPU") == "1":
            pytest.fail("GRUNDY_REQUIRE_GPU=1 but no GPU adapter")
        pytest.skip("no GPU adapter")
    assert out.returncode == 0, out.stderr
    assert "XDG_RUNTIME_DIR" not in out.stderr, out.stderr


def test_a_full_disk_raises_and_the_interpreter_goes_on(tmp_path):
    # GRUNDY_FAIL_TABLE_FILE_OVER stands for a disk that fills under a table
    # kept in a file; the command ends there, the module must raise.
    code = (
        "import grundy\n"
        "try:\n"
        "    grundy.octal('0.007', 60000, algorithm='naive', backend='cpu', memory='16K',\n"
        f"                 folder={str(tmp_path)!r})\n"
        "except RuntimeError as e:\n"
        "    print('raised:', e)\n"
        "print('alive')\n"
    )
    env = dict(os.environ, GRUNDY_FAIL_TABLE_FILE_OVER="40000")
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, timeout=300
    )
    assert out.returncode == 0, out.stderr
    assert f"raised: the table's file in {tmp_path} could not grow" in out.stdout, out.stdout
    assert out.stdout.rstrip().endswith("alive")
    assert "panicked" not in out.stderr, out.stderr
    assert list(tmp_path.iterdir()) == []


def test_milestones_are_what_runs_to_those_heaps_report(cli):
    """Officers' statistics at every power of two, as columns pandas takes
    and frequencies as arrays, against the command run to each heap."""
    import pandas

    table = grundy.octal("0.6", 20000)
    columns = table.milestones()
    frame = pandas.DataFrame(columns)
    assert list(frame["n"]) == [1024, 2048, 4096, 8192, 16384]
    for row in frame.itertuples():
        expected = json.loads(cli("octal", "0.6", "-n", str(row.n), "--json", "--backend", "cpu"))
        for key in ("max_value", "first_max_at", "p_positions", "rare_mask",
                    "rare_count", "last_rare"):
            assert getattr(row, key) == expected[key], (row.n, key)
        counts = row.frequencies
        assert isinstance(counts, numpy.ndarray)
        assert counts.sum() == row.n + 1
        assert counts[0] == expected["p_positions"]
        assert len(counts) == expected["max_value"] + 1
    listed = table.milestones([100, 19999, 30000])
    assert listed["n"] == [100, 19999]
    with pytest.raises(ValueError, match="pow2"):
        table.milestones("1k")


def test_hunt_rows_as_columns_go_on_with_a_larger_budget(tmp_path):
    """The hunt's rows load into pandas, its frequencies are arrays, and a
    second hunt with a larger budget goes on from the first one's folder."""
    import pandas

    first = grundy.hunt(["0.6", "0.07"], budget=0.5, dir=tmp_path)
    frame = pandas.DataFrame(first)
    assert list(frame["code"]) == ["0.6", "0.07"]
    assert list(frame["end"]) == ["budget", "solved"]
    assert frame.loc[1, "period"] == 34 and frame.loc[1, "certified"]
    for row in frame.itertuples():
        assert isinstance(row.frequencies, numpy.ndarray)
        assert row.frequencies.sum() == row.n + 1
    second = grundy.hunt("0.6", budget=1.0, dir=tmp_path)
    assert second["n"][0] > first["n"][0]
    assert second["resumed_heaps"][0] == first["n"][0] + 1
    assert (tmp_path / "0.6.freq").read_text().startswith("# grundy: frequencies of 0.6")
    with pytest.raises(ValueError, match="budget"):
        grundy.hunt("0.6", budget=0, dir=tmp_path)


def test_a_run_keeping_a_prefix_and_a_window_has_the_whole_runs_figures():
    """keep_prefix and keep_window: the prefix and the window are the whole
    table's values there, the statistics and milestones are the same, and
    what was not kept is refused by name."""
    whole = grundy.octal("0.167", 200_000, backend="cpu")
    kept = grundy.octal("0.167", 200_000, backend="cpu", keep_prefix=8192,
                        keep_window=8192, stats_at=[150_000])
    assert whole.prefix is None and whole.window is None
    assert numpy.array_equal(kept.prefix, whole.values[:8192])
    assert kept.window_from == 200_001 - 8192
    assert numpy.array_equal(kept.window, whole.values[kept.window_from:])
    assert len(kept) == len(whole) == 200_001
    for key in ("max_value", "first_max_at", "rare_mask", "rare_count", "last_rare", "period"):
        assert getattr(kept, key) == getattr(whole, key), key
    at = [1024, 131072, 150_000, 200_000]
    a, b = whole.milestones(at), kept.milestones(at)
    assert a["n"] == b["n"] == at
    assert a["rare_mask"] == b["rare_mask"] and a["p_positions"] == b["p_positions"]
    assert all(numpy.array_equal(x, y) for x, y in zip(a["frequencies"], b["frequencies"]))
    with pytest.raises(ValueError, match="prefix"):
        kept.values
    with pytest.raises(ValueError, match="p_positions"):
        kept.p_positions
    with pytest.raises(ValueError, match="at 5000"):
        kept.milestones([5000])
    with pytest.raises(RuntimeError, match=r"It needs at least keep_prefix=\d+ and keep_window="):
        grundy.octal("0.6", 300_000, backend="cpu", keep_prefix=2048, keep_window=65536)


def test_a_hunt_keeping_part_of_its_tables_finds_the_same_rows(tmp_path):
    """Past keep_past, the hunt's runs keep a prefix and a window: the same
    rows as a hunt keeping whole tables, and a smaller checkpoint."""
    args = dict(budget=600, max_n=1 << 19, start=1 << 14)
    whole = grundy.hunt("0.167", dir=tmp_path / "whole", keep_past=1 << 19, **args)
    kept = grundy.hunt("0.167", dir=tmp_path / "kept", keep_past=1 << 15,
                       keep_prefix=16384, keep_window=16384, **args)
    for key in ("n", "end", "max_value", "rare_mask", "rare_count", "last_rare"):
        assert whole[key] == kept[key], key
    assert numpy.array_equal(whole["frequencies"][0], kept["frequencies"][0])
    size = lambda name: (tmp_path / name / "0.167.ckpt").stat().st_size
    assert size("kept") < size("whole") / 4


def test_the_version_names_the_commit():
    """__version__ is the library's version with the commit as a local
    label; __commit__ is the commit itself, or says it is not known."""
    import re

    commit = grundy.__commit__
    if commit == "unknown commit":
        assert re.fullmatch(r"\d+\.\d+\.\d+", grundy.__version__)
        return
    match = re.fullmatch(r"([0-9a-f]{12})(\+changes)?", commit)
    assert match, commit
    label = f"+g{match.group(1)}" + (".changes" if match.group(2) else "")
    assert grundy.__version__.endswith(label), (grundy.__version__, commit)


def test_the_checks_the_library_makes_are_worded_as_keywords(tmp_path):
    # One check in the library for each: the module only words it.
    refusals = [
        (lambda: grundy.octal("0.6", n=10, checkpoint=str(tmp_path / "c.ck"), checkpoint_every=0),
         "checkpoint_every=0: expected a positive number of seconds, at most 31536000"),
        (lambda: grundy.hunt(["0.6"], budget=-1, dir=str(tmp_path / "hunt")),
         "budget=-1: expected a positive number of seconds, at most 31536000 (a year)"),
        (lambda: grundy.survey(n=10, prefix="0", digits=9),
         "digits=9: expected 1 to 6 (or `codes = FILE`)"),
    ]
    for call, words in refusals:
        with pytest.raises(ValueError) as refused:
            call()
        said = str(refused.value)
        assert said.startswith(words), said
        assert "--" not in said and "\ue000" not in said, said


def test_misere_quotient_is_the_commands_and_solves_play(cli):
    """misere_quotient gives what `grundy quotient --json` prints: 0.75's
    quotient is Plambeck's R8, and its P-portion decides play(misere=True)."""
    q = grundy.misere_quotient("0.75", 12)
    printed = json.loads(cli("quotient", "0.75", "--max-heap", "12", "--json"))
    for key in ["order", "relations", "elements", "p_portion", "pretending", "orders"]:
        assert q[key] == printed[key], key
    assert q["order"] == 8 and q["p_portion"] == ["a", "b^2"]
    assert q["relations"] == [["a^2", "1"], ["bc", "ab"], ["c^2", "b^2"], ["b^3", "b"]]
    assert grundy.misere_quotient("0.75", 6, exact=True)["elements"] == q["elements"]
    names = q["elements"]
    assert len(names) == len(set(names))
    for heaps in [[1], [1, 1], [2, 2], [1, 2, 5], [3, 4, 7, 9], [5, 5, 6, 8]]:
        report = grundy.play("octal", "0.75", heaps, misere=True)
        assert report["outcome"] == ("P" if _misere_p_075(tuple(sorted(heaps))) else "N"), heaps


@functools.lru_cache(maxsize=None)
def _misere_p_075(heaps):
    """Whether a sum of heaps of 0.75 is a misère P-position, by brute
    force from the rules: take 1 (digit 7: leave no heap, one or two) or
    take 2 (digit 5: leave no heap, or two)."""
    options = []
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for take, digit in [(1, 7), (2, 5)]:
            left = n - take
            if left < 0:
                continue
            if digit & 1 and left == 0:
                options.append(rest)
            if digit & 2 and left > 0:
                options.append(rest + (left,))
            if digit & 4:
                options += [rest + (a, left - a) for a in range(1, left // 2 + 1)]
    return bool(options) and not any(_misere_p_075(tuple(sorted(o))) for o in options)


def test_misere_quotient_refuses_a_heap_past_its_range():
    with pytest.raises(ValueError, match="max heap"):
        grundy.misere_quotient("0.75", 5000)


@functools.lru_cache(maxsize=None)
def _misere_g(digits, heaps):
    """g⁻ of a sum of heaps of the octal game whose k-th digit (taking k)
    is digits[k - 1], from the rules: 1 where there is no move, else the
    mex of the options' values. Independent of grundy's code."""
    values = set()
    for i, n in enumerate(heaps):
        rest = heaps[:i] + heaps[i + 1:]
        for take, digit in enumerate(digits, 1):
            left = n - take
            if left < 0:
                continue
            parts = [()] if digit & 1 and left == 0 else []
            if digit & 2 and left > 0:
                parts.append((left,))
            if digit & 4:
                parts += [(a, left - a) for a in range(1, left // 2 + 1)]
            for p in parts:
                values.add(_misere_g(digits, tuple(sorted(rest + p))))
    if not values:
        return 1
    return min(set(range(len(values) + 1)) - values)


@pytest.mark.parametrize("code, digits, n", [("0.77", (7, 7), 12), ("0.137", (1, 3, 7), 14)])
def test_misere_octal_is_the_commands_and_the_rules(cli, code, digits, n):
    """octal(misere=True): Kayles' misère values from the rules, heap 1 a
    P-position as Winning Ways has it, and every column the command's."""
    t = grundy.octal(code, n=n, misere=True)
    assert t["convention"] == "misere" and t["method"] == "sums"
    assert list(t["g_misere"]) == [_misere_g(digits, (h,) if h else ()) for h in range(n + 1)]
    rows = list(csv.DictReader(io.StringIO(cli("octal", code, "-n", str(n), "--misere", "-q", "--out", "-"))))
    assert [int(r["g"]) for r in rows] == list(t["g"])
    assert [r["genus"] for r in rows] == t["genus"]
    assert [r["outcome_misere"] for r in rows] == t["outcome_misere"]
    assert t["gammas"][0] == (1, 2, 0, 2, 0, 2, 0)  # heap 0 plus k heaps of 2


def test_misere_subtraction_is_linear_and_periodic():
    """The subtraction game {1, 3, 4} under misère play: each heap from the
    smaller ones, from the rules; its truncated genus has period 7."""
    t = grundy.subtraction([1, 3, 4], n=300, misere=True)
    g = []
    for h in range(301):
        options = {g[h - s] for s in (1, 3, 4) if s <= h}
        g.append(min(set(range(len(options) + 1)) - options) if options else 1)
    assert list(t["g_misere"]) == g
    assert (t["method"], t["period"], t["preperiod"]) == ("linear", 7, 0)
    with pytest.raises(ValueError, match="misere=True with backend"):
        grundy.subtraction([1, 3, 4], n=10, misere=True, backend="gpu")
    with pytest.raises(ValueError, match="misere=True with until_periodic"):
        grundy.octal("0.07", n=10, misere=True, until_periodic=100)


def test_misere_play_of_graphs_and_delete_nim_is_the_commands(cli):
    """play(misere=True) on a graph and a Game of Arrows (their components
    valued together) and on a Delete Nim position gives what `grundy play --misere --json` does."""
    cases = [
        (("graph", "0.33", "path:3+path:4"), ["graph", "0.33", "path:3+path:4"]),
        (("delete_nim", "vdn", [4, 6]), ["delete-nim", "--rule", "vdn", "4,6"]),
        (("arrows", "pode:1,2+path:3"), ["arrows", "pode:1,2+path:3"]),
        (("hackenbush", "pode:1,2,3", [0]), ["hackenbush", "--graph", "pode:1,2,3"]),
        (("rect", "3x5,2x7"), ["rect", "3x5,2x7"]),
    ]
    for args, words in cases:
        report = grundy.play(*args, misere=True)
        printed = json.loads(cli("play", *words, "--misere", "--json"))
        assert report == printed, args
        assert report["convention"] == "misere"
    # 0.33 on two vertices: taking both would lose; taking one wins.
    report = grundy.play("graph", "0.33", "path:2", misere=True)
    assert (report["outcome"], report["winning_moves_total"]) == ("N", 2)


def test_misere_survey_and_hunt_give_the_commands_rows(cli, tmp_path):
    """survey(misere=True) and hunt(misere=True) give the rows `grundy
    survey --misere` and `grundy hunt --misere` print; a second hunt goes on
    from the first one's folder; normal-play arguments are refused."""
    import pandas

    rows = grundy.survey(prefix="0", digits=1, n=2000, misere=True, max_heap=12, seconds=10)
    printed = list(csv.DictReader(io.StringIO(cli(
        "survey", "--misere", "--digits", "1", "-n", "2000", "--max-heap", "12",
        "--seconds", "10", "-q", "--out", "-"))))
    frame = pandas.DataFrame(rows)
    assert list(frame["code"]) == [r["code"] for r in printed]
    text = lambda v: "" if v is None else str(v).lower()
    for key in ("splits", "heaps", "order", "growth", "solved_period", "solved_start",
                "checked_to", "stopped", "genus_period", "genus_preperiod"):
        assert [text(v) for v in rows[key]] == [r[key] for r in printed], key
    # 0.3 is misère Nim's one-heap game: period 2 from heap 0, never splits
    at = rows["code"].index("0.3")
    assert (rows["splits"][at], rows["genus_period"][at], rows["solved_period"][at]) == (False, 2, 2)

    first = grundy.hunt(["0.75", "0.[3]"], budget=10, dir=tmp_path, misere=True, max_heap=10)
    assert first["heaps"] == [10, 10] and first["end"] == ["max-heap", "max-heap"]
    second = grundy.hunt(["0.75", "0.[3]"], budget=10, dir=tmp_path, misere=True, max_heap=20)
    assert second["resumed_from"] == [10, 10]
    printed = json.loads(cli("hunt", "--misere", "0.75", "0.[3]", "--budget", "10",
                             "--max-heap", "20", "--dir", str(tmp_path), "--json", "-q"))
    for key in ("code", "heaps", "order", "growth", "end"):
        assert second[key] == [r[key] for r in printed["rows"]], key
    with pytest.raises(ValueError, match="unsolved="):
        grundy.hunt(["0.75"], budget=1, dir=tmp_path, misere=True, unsolved=True)
    with pytest.raises(ValueError, match="misere=True"):
        grundy.hunt(["0.75"], budget=1, dir=tmp_path, max_heap=10)
    with pytest.raises(ValueError, match="seconds="):
        grundy.survey(["0.75"], n=10, misere=True, seconds=0)


def test_misere_nim_runs_in_blocks(cli):
    """Nim (0.[3]) under misère play: its takes are unbounded, so its table
    runs in blocks; misère Nim's rule from the rules, and every column the
    command's. A code with bounded takes is refused on the card."""
    t = grundy.octal("0.[3]", n=300, misere=True, backend="cpu")
    assert (t["method"], t["backend"], t["period"]) == ("blocked", "cpu", None)
    assert list(t["g_misere"]) == [1, 0] + list(range(2, 301))
    rows = list(csv.DictReader(io.StringIO(cli("octal", "0.[3]", "-n", "300", "--misere", "-q", "--out", "-"))))
    assert [r["genus"] for r in rows] == t["genus"]
    with pytest.raises(ValueError, match="gpu"):
        grundy.octal("0.33", n=10, misere=True, backend="gpu")


def test_misere_rectangles_under_an_address_limit_are_refused_not_out_of_memory():
    """Under an address-space limit set after import (as `ulimit -v` does
    for the CLI), the module's misère rectangles past the budget are
    refused with MemoryError naming the sides that fit, and the
    interpreter lives on. The cap leaves 300 MiB above what the
    interpreter holds once the module is imported, whatever the machine."""
    import subprocess
    import sys

    script = (
        "import re, resource, grundy\n"
        "held = int(re.search(r'VmSize:\\s+(\\d+)', open('/proc/self/status').read()).group(1))\n"
        "cap = held * 1024 + 300 * 2**20\n"
        "resource.setrlimit(resource.RLIMIT_AS, (cap, cap))\n"
        "try:\n"
        "    grundy.rect(2, 10, misere=True)\n"
        "except Exception as e:\n"
        "    print(type(e).__name__, e)\n"
    )
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("MemoryError") and "expected max" in done.stdout, done.stdout
