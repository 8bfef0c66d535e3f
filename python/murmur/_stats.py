"""Experiments (`murmur stats`): runs x conditions, their summaries and
per-run values, with statistics of the caller's own (extra=)."""
import ctypes
import threading
from ctypes import byref, c_double, c_void_p

import numpy as np

from . import _errors, _lib, _progress

lib = _lib.lib
MAX_EXTRA = 16  # MUR_EXPERIMENT_MAX_EXTRA


class Rows(list):
    """A list of row dicts (pandas is not installed); columns names them."""

    def __init__(self, rows, columns):
        super().__init__(rows)
        self.columns = columns


def _table(rows, columns):
    try:
        import pandas
    except ImportError:
        return Rows(rows, columns)
    return pandas.DataFrame(rows, columns=columns)


def _flock_arrays(f):
    """N x 2 positions and velocities of flock f, as views (valid in the call)."""
    n = lib.mur_flock_count(f)
    out = []
    for xs, ys in ((lib.mur_flock_x, lib.mur_flock_y), (lib.mur_flock_vx, lib.mur_flock_vy)):
        if n == 0:
            out.append(np.empty((0, 2)))
            continue
        ax, ay = xs(f), ys(f)
        lo = min(ax, ay)
        buf = (ctypes.c_char * (abs(ay - ax) + n * 8)).from_address(lo)
        a = np.ndarray((n, 2), dtype=np.float64, buffer=buf, offset=ax - lo, strides=(8, ay - ax))
        a.flags.writeable = False
        out.append(a)
    return out


def _extra_hook(names, fns, failure):
    """The C callback: each fn(positions, velocities) into out[j]. An
    exception is kept (the first one) and fails the experiment; the caller
    re-raises it."""
    lock = threading.Lock()

    def hook(ctx, f, c, r, out):
        try:
            pos, vel = _flock_arrays(f)
            for j, fn in enumerate(fns):
                out[j] = float(fn(pos, vel))
            return 0
        except BaseException as e:  # noqa: B902 (a KeyboardInterrupt too must reach the caller)
            with lock:
                if not failure:
                    failure.append(e)
            return 1
    return _lib.extra_fn(hook)


def _summary(values):
    arr = (c_double * len(values))(*values)
    s = _lib.Summary()
    lib.mur_summary_compute(byref(s), arr, len(values))
    return s


def run(scene, runs, ticks, condition, threads, extra, per_run, progress):
    extra = dict(extra or {})
    if len(extra) > MAX_EXTRA:
        raise ValueError("at most %d extra statistics" % MAX_EXTRA)
    for name, fn in extra.items():
        if not callable(fn):
            raise TypeError("extra[%r] must be a function of (positions, velocities)" % name)
        if name in _lib.METRICS or name in ("condition", "run"):
            raise ValueError("extra statistic %r has the name of a column murmur writes" % name)
    d = _lib.opts(_lib.ExperimentDef, lib.mur_experiment_def_init)
    d.runs = int(runs or 0)
    d.ticks = int(ticks or 0)
    d.threads = int(threads)
    if condition is not None:
        d.condition = (condition if isinstance(condition, str) else scene.conditions[condition]).encode()
    failure = []
    hook = None
    if extra:
        hook = _extra_hook(list(extra), list(extra.values()), failure)
        d.nextra, d.extra = len(extra), hook
    report = _progress.reporter(progress, "stats runs")

    def on_progress(ctx, done, total):
        if report:
            report(done, total)
    d.progress = _lib.progress_fn(on_progress)
    e = c_void_p()
    err = _errors.new()
    try:
        with _progress.interruptible() as stop:
            d.stop = ctypes.pointer(stop)
            rc = lib.mur_experiment_run(byref(e), scene._ptr, byref(d), byref(err))
            if failure:
                raise failure[0]
            _errors.check(rc, err)
        return _tables(e, list(extra), per_run)
    finally:
        lib.mur_experiment_destroy(e)
        if hasattr(report, "close"):
            report.close()


def _tables(e, extra_names, per_run):
    nc, nr = lib.mur_experiment_conditions(e), lib.mur_experiment_runs(e)
    # the metrics the experiment computed: the default set and those the
    # scene names (the field's measures only then), then the caller's own
    kept = lib.mur_experiment_metrics_kept(e)
    ids = [k for k in range(len(_lib.METRICS)) if kept >> k & 1]
    names = [_lib.METRICS[k] for k in ids] + extra_names
    k0 = len(ids)

    def value(c, r, k):
        return (lib.mur_experiment_value(e, c, r, ids[k]) if k < k0
                else lib.mur_experiment_extra(e, c, r, k - k0))
    if per_run:
        rows = []
        for c in range(nc):
            cname = lib.mur_experiment_condition_name(e, c).decode()
            for r in range(nr):
                row = {"condition": cname, "run": r}
                row.update({name: value(c, r, k) for k, name in enumerate(names)})
                rows.append(row)
        return _table(rows, ["condition", "run"] + names)
    rows = []
    for c in range(nc):
        cname = lib.mur_experiment_condition_name(e, c).decode()
        for k, name in enumerate(names):
            s = _summary([value(c, r, k) for r in range(nr)])
            rows.append({"condition": cname, "metric": name, "median": s.median, "p10": s.p10,
                         "p90": s.p90, "mean": s.mean, "n": s.n})
    return _table(rows, ["condition", "metric", "median", "p10", "p90", "mean", "n"])
