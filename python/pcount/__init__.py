"""pcount from Python: exact counting on the same engine and driver as `count`.

    >>> import pcount
    >>> pcount.count("latin", n=7)["reduced"]
    16942080

Every function runs `count` in this process (no subprocess): the keyword
arguments become `count`'s options, the report is its `--json` object, and
bad input raises ValueError with `count`'s one-line message. The GIL is
released while counting; Ctrl-C (KeyboardInterrupt) stops a run the way
SIGINT stops `count`, finished tasks kept in the checkpoint. docs/python.md
has the whole API.
"""

import json
import queue
import threading

from . import _pcount

__all__ = ["count", "estimate", "listing", "merge", "Report", "problems", "tqdm_progress", "__version__"]
__version__ = _pcount.version


class Report(dict):
    """A report: `count --json`'s object, with every count as an int.

    report["counts"] holds the counts by name; a count is also found by its
    name alone (report["reduced"] is report["counts"]["reduced"]).
    """

    def __missing__(self, key):
        counts = dict.get(self, "counts") or dict.get(self, "partial_counts") or {}
        if key in counts:
            return counts[key]
        raise KeyError(key)


# One run at a time in a process: the driver's stop flag (--list K, the stop
# file) and its SIGINT/SIGTERM handlers are process-wide.
_running = threading.Lock()


def _call(args, sink=None, progress=None, echo=False):
    """_pcount.run, or RuntimeError while another call of this process runs."""
    if not _running.acquire(blocking=False):
        raise RuntimeError("pcount runs one job at a time in a process, and another call is running "
                           "(a listing not yet drained or closed, or another thread)")
    try:
        return _pcount.run(args, sink, progress, echo)
    finally:
        _running.release()


def problems():
    """The problems of `count`, as {name: help}, from the table of `count --help`."""
    return {option: text for option, _, text, _ in _pcount.problems()}


def _problem(name):
    """The problem entry (option, value name, help, lists) named `name`."""
    wanted = name.replace("_", "-")
    for entry in _pcount.problems():
        if entry[0] == wanted:
            return entry
    raise ValueError(f"{name!r}: unknown problem; choose one of " + ", ".join(sorted(problems())))


def _words(key, value):
    """The option words of one keyword argument (True: a flag; None, False: left out)."""
    option = "--" + key.replace("_", "-")
    if value is None or value is False:
        return []
    if value is True:
        return [option]
    if isinstance(value, (list, tuple)):
        value = ",".join(str(v) for v in value)
    return [option, str(value)]


def _arguments(problem, value, options):
    """`count`'s arguments for problem `problem` and keyword `options`.

    The problem's own value is `value`, or the keyword named after its value
    in --help (n for --latin N and --queens N, p for --puzzle P) or `value`.
    """
    option, value_name, _, _ = _problem(problem)
    options = dict(options)
    for key in (value_name.lower(), "value"):
        if value is None and key and key in options:
            value = options.pop(key)
    if value_name and value is None:
        raise ValueError(f"--{option}: missing value ({problem}(..., {value_name.lower()}=...))")
    if not value_name and value is not None:
        raise ValueError(f"--{option}: takes no value")
    args = [f"--{option}"] if value is None else [f"--{option}", str(value)]
    for key, val in options.items():
        args += _words(key, val)
    return args


def _message(err):
    """The last line `count` wrote on stderr, without its "count: " prefix."""
    lines = [line for line in err.decode("utf-8", "replace").splitlines() if line.strip()]
    last = lines[-1] if lines else "failed"
    return last[len("count: ") :] if last.startswith("count: ") else last


def _json_lines(text):
    """The JSON objects of `text`, one a line (other lines are skipped)."""
    return [json.loads(line) for line in text.decode("utf-8").splitlines() if line.startswith("{")]


def _run(args, progress=None, echo=False):
    """Runs `count ARGS --json`; the report, or the exception its status means.

    The report is stdout's last object; a job that prints objects (--puzzle-file)
    prints them on stdout and its report on stderr, and its objects go to
    report["output"]. A run that reports and exits 1 (a bad line of a
    --puzzle-file) returns its report, which counts what went wrong.
    """
    status, out, err = _call(args + ["--json"], None, progress, echo)
    if status == 2:
        raise ValueError(_message(err))
    if status == 130:
        raise KeyboardInterrupt(_message(err))
    printed, reported = _json_lines(out), [j for j in _json_lines(err) if "report" in j]
    if printed and "report" in printed[-1]:
        report, output = Report(printed[-1]), printed[:-1]
    elif reported:
        report, output = Report(reported[-1]), printed
    else:
        raise RuntimeError(_message(err))
    if output:
        report["output"] = output
    for key in ("counts", "partial_counts"):
        if isinstance(report.get(key), dict):
            report[key] = {name: int(v) for name, v in report[key].items()}
    return report


def count(problem, value=None, *, progress=False, **options):
    """Counts `problem` as `count --PROBLEM VALUE --OPTION=... --json` does.

    Keywords are count's options with _ for -: count("queens", n=12,
    threads=4), count("sudoku", "2x3"), count("latin", n=9, rows=3,
    checkpoint="r.ckpt"), count("queens", n=16, shard="0/4", out="s0.json").
    threads defaults to the CPUs this process may use. progress=True shows
    count's progress line on stderr; progress=callable calls
    callable(done, total) with the tasks done about every 250 ms and at the
    end (tqdm_progress() draws a tqdm bar). Returns a Report (a dict).
    Raises ValueError for bad input, KeyboardInterrupt when stopped by
    Ctrl-C, RuntimeError for a failed run.
    """
    args = _arguments(problem, value, options)
    if callable(progress):
        return _run(args, progress)
    return _run(args + ["--progress"] if progress else args, echo=bool(progress))


def tqdm_progress(**tqdm_options):
    """A progress callback for count() that draws a tqdm bar of the tasks
    (Debian python3-tqdm): count("queens", n=16, progress=tqdm_progress())."""
    from tqdm import tqdm  # only when asked for: tqdm is optional

    bar = None

    def update(done, total):
        nonlocal bar
        if bar is None:
            bar = tqdm(total=total, unit="task", **tqdm_options)
        bar.update(done - bar.n)
        if done >= total:
            bar.close()

    return update


def estimate(problem, value=None, *, seconds=None, **options):
    """The estimate report of `count ... --estimate [SECONDS] --json`: the
    predicted size, CPU and wall time of the run, without running it."""
    args = _arguments(problem, value, options)
    return _run(args + ["--quiet", "--estimate" if seconds is None else f"--estimate={seconds}"])


def merge(files, raw=False):
    """The report of `count merge --json FILE...`: the shard files (from
    count(..., shard="I/K", out=FILE)) added up into the job's report."""
    return _run(["merge"] + (["--raw"] if raw else []) + [str(f) for f in files])


class _Closed(Exception):
    """A listing's consumer closed the generator."""


def listing(problem, value=None, *, first=None, **options):
    """Yields each object `count --PROBLEM ... --list --json` lists, as a
    dict, in count's order, while the run goes on (a bounded queue: memory
    stays bounded). first=K: only the first K (--list K). Closing the
    generator early stops the run."""
    args = _arguments(problem, value, options)
    args += ["--quiet", "--json", "--list" if first is None else f"--list={first}"]
    lines = queue.Queue(maxsize=1024)
    closed = threading.Event()
    outcome = {}

    def put(item):
        """Queues `item`; False once the consumer is gone."""
        while not closed.is_set():
            try:
                lines.put(item, timeout=0.1)
                return True
            except queue.Full:
                pass
        return False

    def sink(line):
        if not put(line):
            raise _Closed  # the write fails, which stops the run

    def work():
        try:
            outcome["result"] = _call(args, sink)
        except BaseException as e:  # handed over to the consumer
            outcome["error"] = e
        put(None)

    worker = threading.Thread(target=work, daemon=True)
    worker.start()
    try:
        while (line := lines.get()) is not None:
            yield json.loads(line)
    finally:
        closed.set()
        worker.join()
    if "error" in outcome:
        raise outcome["error"]
    status, _, err = outcome["result"]
    if status == 2:
        raise ValueError(_message(err))
    if status == 130:
        raise KeyboardInterrupt(_message(err))
    if status != 0:
        raise RuntimeError(_message(err))


def _help():
    """`count --help`: the same option table documents the keywords."""
    status, out, _ = _call(["--help"])
    return out.decode("utf-8") if status == 0 else ""


count.__doc__ += "\n`count --help`, whose options are the keywords:\n\n" + _help()
