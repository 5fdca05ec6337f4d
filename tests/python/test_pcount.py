"""The Python module pcount against published counts and against `count`.

Run by ctest as Python.Pytest (python/CMakeLists.txt) with PYTHONPATH at the
build's python/ folder and PCOUNT_COUNT_EXE naming the build's count.
"""

import json
import os
import signal
import subprocess
import threading
import time
from pathlib import Path

import pytest

import pcount

COUNT = os.environ.get("PCOUNT_COUNT_EXE", "count")
PUZZLE = "1....7.9..3..2...8..96..5....53..9...1..8...26....4...3......1..4......7..7...3.."


def cli(*args):
    """`count ARGS --json`'s object, from the program itself."""
    done = subprocess.run([COUNT, *args, "--json", "--quiet"], capture_output=True, text=True, check=True)
    return json.loads(done.stdout.strip().splitlines()[-1])


def comparable(report):
    """What two runs of one job share: everything but times, memory, the machine and the parts stolen."""
    varying = ("context", "wall_seconds", "cpu_seconds", "max_rss_bytes", "steals")
    kept = {k: v for k, v in report.items() if k not in varying}
    kept["counts"] = {name: int(v) for name, v in report["counts"].items()}
    for key in ("setup_seconds", "count_seconds", "memory"):  # per-run figures of some problems
        kept.pop(key, None)
    return kept


def test_known_values():
    # OEIS A000170, A000315; the 6x6 sudoku grids (README, "Known values").
    assert pcount.count("queens", n=8)["all"] == 92
    assert pcount.count("queens", n=8)["distinct"] == 12
    assert pcount.count("latin", n=7)["reduced"] == 16942080
    assert pcount.count("sudoku", "2x3")["grids"] == 28200960
    assert pcount.count("latin", n=4, rows=2, threads=1)["reduced"] == 3  # R(2,4): 3 reduced 2x4 rectangles


def test_counts_are_exact_ints():
    grids = pcount.count("sudoku", "3x3")["counts"]["grids"]
    assert grids == 6670903752021072936960 and isinstance(grids, int)  # Felgenhauer & Jarvis 2005


@pytest.mark.parametrize(
    "problem, value, options, args",
    [
        ("latin", 5, {}, ["--latin", "5"]),
        ("sudoku", "2x2", {"method": "search"}, ["--sudoku", "2x2", "--method", "search"]),
        ("queens", 9, {"threads": 2}, ["--queens", "9", "--threads", "2"]),
        ("puzzle", PUZZLE, {}, ["--puzzle", PUZZLE]),
        ("bulls_and_cows", None, {}, ["--bulls-and-cows"]),
        ("mastermind", None, {"strategy": "knuth"}, ["--mastermind", "--strategy", "knuth"]),
        ("kirkman", None, {}, ["--kirkman"]),
        ("tictactoe", None, {"misere": True}, ["--tictactoe", "--misere"]),
    ],
)
def test_same_report_as_the_cli(problem, value, options, args):
    ours = pcount.count(problem, value, **options)
    assert comparable(ours) == comparable(cli(*args))


def test_puzzle_file_reports_and_keeps_each_result(tmp_path):
    puzzles = tmp_path / "puzzles.txt"
    puzzles.write_text(PUZZLE + "\n" + "1" * 81 + "\n")  # one unique puzzle, one bad line
    report = pcount.count("puzzle_file", f=str(puzzles))
    done = subprocess.run([COUNT, "--puzzle-file", str(puzzles), "--json"], capture_output=True, text=True)
    assert done.returncode == 1  # the bad line
    output = report.pop("output")
    assert comparable(report) == comparable(json.loads(done.stderr.strip().splitlines()[-1]))
    assert output == [json.loads(line) for line in done.stdout.splitlines()]
    assert report["unique"] == 1 and report["bad_lines"] == 1


def test_threads_default_to_the_cpus_the_process_may_use():
    assert pcount.count("queens", n=6)["threads"] == len(os.sched_getaffinity(0))


@pytest.mark.parametrize(
    "call, message",
    [
        (lambda: pcount.count("queens", n=0), "--queens: expected a whole number from 1 to 32, got 0"),
        (lambda: pcount.count("queens", n=8, threads=0), "--threads"),
        (lambda: pcount.count("queens", n=8, no_such_option=1), "--no-such-option: unknown option"),
        (lambda: pcount.count("sudoku", "9x9x"), "--sudoku"),
        (lambda: pcount.count("no-such-problem", 1), "unknown problem"),
        (lambda: pcount.count("queens"), "missing value"),
        (lambda: pcount.count("queens", n=8, method="join", rows=3), "--rows: does not apply to --queens"),
    ],
)
def test_bad_input_raises_value_error_with_the_cli_message(call, message):
    with pytest.raises(ValueError, match=message.replace("(", r"\(")):
        call()


def test_shards_merge_to_the_whole_count(tmp_path):
    files = [tmp_path / f"s{i}.json" for i in range(3)]
    for i, f in enumerate(files):
        part = pcount.count("queens", n=10, method="search", shard=f"{i}/3", out=str(f))
        assert part["report"] == "shard" and sum(part["partial_counts"].values()) > 0
    merged = pcount.merge(files)
    assert merged["all"] == 724 and merged["distinct"] == 92  # OEIS A000170, A002562
    with pytest.raises(RuntimeError, match="shard"):
        pcount.merge(files[:2])


def test_estimate_returns_the_estimate_report():
    report = pcount.estimate("queens", n=12, method="search", seconds=0.2)
    assert report["report"] == "estimate"


def test_listing_drained_matches_the_cli_in_order():
    ours = list(pcount.listing("queens", n=6))
    lines = subprocess.run([COUNT, "--queens", "6", "--list", "--json", "--quiet"], capture_output=True, text=True,
                           check=True).stdout.splitlines()
    assert ours == [json.loads(line) for line in lines] and len(ours) == 4  # Q(6) = 4


def test_listing_cut_short_stops_the_run():
    solutions = pcount.listing("queens", n=12)  # 14200 solutions, more than the queue holds
    first = [next(solutions) for _ in range(3)]
    solutions.close()
    assert first == list(pcount.listing("queens", n=12, first=3))
    assert pcount.count("queens", n=8)["all"] == 92  # the engine is free again


def test_one_run_at_a_time():
    solutions = pcount.listing("queens", n=12)
    next(solutions)  # the listing's run goes on in its thread
    with pytest.raises(RuntimeError, match="one job at a time"):
        pcount.count("queens", n=8)
    solutions.close()
    assert pcount.count("queens", n=8)["all"] == 92


def test_keyboard_interrupt_keeps_finished_tasks_for_resume(tmp_path, monkeypatch):
    monkeypatch.setenv("PCOUNT_CHECKPOINT_SECONDS", "0.02")
    checkpoint = tmp_path / "run.ckpt"
    job = {"n": 14, "method": "search", "threads": 1, "split_depth": 4, "checkpoint": str(checkpoint)}
    finished = threading.Event()

    def interrupt_after_some_records():
        header = None
        while not finished.is_set():
            if checkpoint.exists():
                size = checkpoint.stat().st_size
                header = header or size
                if size > header:
                    os.kill(os.getpid(), signal.SIGINT)  # as Ctrl-C would
                    return
            time.sleep(0.005)

    watcher = threading.Thread(target=interrupt_after_some_records)
    watcher.start()
    try:
        with pytest.raises(KeyboardInterrupt, match="stopped by SIGINT"):
            pcount.count("queens", **job)
    finally:
        finished.set()
        watcher.join()
    resumed = pcount.count("queens", **job)
    assert resumed["tasks_resumed"] > 0 and resumed["tasks_run"] > 0
    assert resumed["all"] == 365596 and resumed["distinct"] == 45752  # OEIS A000170, A002562


def test_progress_callback_sees_every_task_done():
    seen = []
    report = pcount.count("queens", n=12, method="search", threads=2, progress=lambda done, total: seen.append((done, total)))
    assert seen and seen[-1] == (report["tasks"], report["tasks"])
    assert all(a[0] <= b[0] and a[1] == b[1] for a, b in zip(seen, seen[1:]))  # never backwards


def test_progress_true_shows_counts_progress_line(capfd):
    report = pcount.count("queens", n=10, threads=2, progress=True)
    assert f"count: {report['tasks']}/{report['tasks']} tasks (100.0%)" in capfd.readouterr().err


def test_tqdm_adapter_fills_its_bar(capsys):
    pytest.importorskip("tqdm")  # Debian python3-tqdm
    report = pcount.count("queens", n=10, threads=2, progress=pcount.tqdm_progress(desc="Q(10)"))
    assert report["all"] == 724
    assert f"{report['tasks']}/{report['tasks']}" in capsys.readouterr().err


def test_docstring_and_stubs_hold_the_option_table():
    assert "--checkpoint FILE" in pcount.count.__doc__ and "queens" in pcount.problems()
    stubs = (Path(pcount.__file__).parent / "__init__.pyi").read_text()
    compile(stubs, "__init__.pyi", "exec")
    for keyword in ("threads: int | str | None", "checkpoint: str | os.PathLike[str] | None", "misere: bool"):
        assert keyword in stubs
