"""Scenes and simulations: libmurmur's mur_scene and mur_session."""
import ctypes
import os
from ctypes import POINTER, byref, c_int, c_long, c_uint8, c_void_p

import numpy as np

from . import _errors, _lib, _media, _progress, _stats, _yaml
from ._errors import SceneError

lib = _lib.lib


def _bytes(s):
    return None if s is None else os.fsencode(s) if isinstance(s, os.PathLike) else s.encode()


class Scene:
    """A loaded scene (docs/scenes.md). Make one with murmur.load(path),
    Scene.from_yaml(text) or Scene.from_dict(d)."""

    def __init__(self, ptr, source):
        self._ptr = ptr
        self._source = source  # ("file", path) or ("text", name, text): to load a copy to vary

    @staticmethod
    def _load(source):
        ptr = c_void_p()
        err = _errors.new()
        if source[0] == "file":
            rc = lib.mur_scene_load(byref(ptr), _bytes(source[1]), byref(err))
        else:
            data = source[2].encode()
            rc = lib.mur_scene_parse(byref(ptr), _bytes(source[1]), data, len(data), byref(err))
        _errors.check(rc, err)
        return ptr

    @classmethod
    def load(cls, path):
        path = os.fspath(path)
        return cls(cls._load(("file", path)), ("file", path))

    @classmethod
    def from_yaml(cls, text, name="<yaml>"):
        """A scene from YAML text; errors name `name` as their file."""
        source = ("text", name, text)
        return cls(cls._load(source), source)

    @classmethod
    def from_dict(cls, d, name="<dict>"):
        """A scene from a dict shaped like the YAML (keys of docs/scenes.md)."""
        return cls.from_yaml(_yaml.dump(d), name)

    def __del__(self):
        if getattr(self, "_ptr", None):
            lib.mur_scene_destroy(self._ptr)
            self._ptr = None

    def _copy(self, size=None, fps=None, quality=None, draft=False):
        """A fresh copy of the scene, varied as `murmur render --size` etc. do."""
        copy = Scene(Scene._load(self._source), self._source)
        if size is None and fps is None and quality is None and not draft:
            return copy
        v = _lib.Variant(0, 0, 0, -1, 1 if draft else 0)
        if size is not None:
            w, h = c_int(), c_int()
            if isinstance(size, (tuple, list)):
                w.value, h.value = int(size[0]), int(size[1])
            elif lib.mur_size_parse(_bytes(str(size)), byref(w), byref(h)):
                raise SceneError("size must be WxH or 360p, 480p, 720p, 1080p, 1440p, 4k, not %r" % (size,))
            v.width, v.height = w.value, h.value
        if fps is not None:
            v.fps = int(fps)
        if quality is not None:
            v.quality = int(quality)
        err = _errors.new()
        _errors.check(lib.mur_scene_vary(copy._ptr, byref(v), byref(err)), err)
        return copy

    # ---- what a scene is
    @property
    def size(self):
        """(width, height) of its frames, pixels."""
        w, h = c_int(), c_int()
        lib.mur_scene_size(self._ptr, byref(w), byref(h))
        return w.value, h.value

    @property
    def fps(self):
        return lib.mur_scene_fps(self._ptr)

    @property
    def ticks_per_second(self):
        return lib.mur_scene_tps(self._ptr)

    @property
    def frames(self):
        """Frames of the whole video."""
        return lib.mur_scene_frames(self._ptr)

    @property
    def conditions(self):
        """Names of the experiment's conditions, in order."""
        return [lib.mur_scene_condition_name(self._ptr, c).decode()
                for c in range(lib.mur_scene_conditions(self._ptr))]

    def frame_at(self, at):
        """Frame index of a time of video: "20s", "1.5s", "900t", or seconds as a number."""
        if isinstance(at, (int, float)):
            at = "%rs" % float(at)
        k = c_long()
        if lib.mur_session_frame_at(self._ptr, _bytes(at), byref(k)):
            raise SceneError("at must be a time like 12s, 1.5s or 900t, not %r" % (at,))
        return k.value

    # ---- what a scene makes
    def simulation(self, condition=None, run=None, threads=0):
        """A Simulation at tick 0: the scene's flock (condition: an experiment
        condition's name or index; run: experiment run K's seed)."""
        return Simulation(self, condition, run, threads)

    def still(self, at=0, path=None, condition=None, run=None, size=None, threads=0):
        """Frame at time `at` (see frame_at): an Image (RGBA, height x width x 4
        uint8), or with path the file written (.png, .pdf, .svg), returned."""
        scene = self._copy(size=size) if size is not None else self
        sim = Simulation(scene, condition, run, threads)
        k = scene.frame_at(at)
        err = _errors.new()
        with _progress.interruptible(sim._stop):
            if path is not None:
                _errors.check(lib.mur_session_still(sim._ptr, k, _bytes(os.fspath(path)), byref(err)), err)
                return os.fspath(path)
            px, stride = POINTER(c_uint8)(), c_int()
            _errors.check(lib.mur_session_frame(sim._ptr, k, byref(px), byref(stride), byref(err)), err)
            w, h = scene.size
            return _media.Image.from_argb32(px, stride.value, w, h)

    def render(self, path, size=None, fps=None, quality=None, draft=False, start=None, end=None,
               condition=None, run=None, preset=None, threads=0, progress=None):
        """Render the video (or frames start..end, times as frame_at takes) to
        path; its extension picks the format (docs/scenes.md). Returns a Video.
        Ctrl-C stops it with the frames drawn so far finalised, a playable
        file, and raises KeyboardInterrupt."""
        scene = self._copy(size=size, fps=fps, quality=quality, draft=draft)
        return _media.render(scene, os.fspath(path), start, end, condition, run, preset, threads,
                             progress)

    def stats(self, runs=None, ticks=None, condition=None, threads=0, extra=None, per_run=False,
              progress=None):
        """Run the experiment (runs x ticks; None: the scene's experiment.runs
        and .ticks) and summarise it: one row per condition and statistic
        (median, p10, p90, mean, n), a pandas DataFrame when pandas is
        installed. extra={"name": fn}: fn(positions, velocities) -> number,
        called at each run's measured tick, its values summarised beside
        the built-in metrics. per_run=True: one row per condition and run."""
        return _stats.run(self, runs, ticks, condition, threads, extra, per_run, progress)

    def trace(self, path, condition=None, run=None, runs=1, start=0, end=-1, every=1, float32=False,
              threads=0, progress=None):
        """Write the trajectories of ticks start..end (ticks from the first
        frame; end -1: the last frame's) to path, .csv or .h5 (docs/data.md)."""
        o = _lib.opts(_lib.TraceOpts, lib.mur_trace_opts_init)
        o.path = _bytes(os.fspath(path))
        if condition is not None:
            o.condition = _bytes(condition if isinstance(condition, str) else self.conditions[condition])
        o.run = -1 if run is None else int(run)
        o.runs, o.first, o.last, o.every = int(runs), int(start), int(end), int(every)
        o.float32, o.threads = int(bool(float32)), int(threads)
        report = _progress.reporter(progress, "trace ticks")
        err = _errors.new()
        with _progress.interruptible() as stop:
            o.stop = ctypes.pointer(stop)

            def hook(ctx, done, total):
                if report:
                    report(done, total)
            o.progress = _lib.progress_fn(hook)
            rc = lib.mur_trace_write(self._ptr, byref(o), byref(err))
            _errors.check(rc, err)
        return os.fspath(path)

    def _repr_png_(self):
        return self.still(0)._repr_png_()


def _condition_index(scene, condition):
    if condition is None:
        return -1
    if isinstance(condition, str):
        names = scene.conditions
        if condition not in names:
            raise SceneError("'%s' is not a condition of the scene: %s"
                             % (condition, ", ".join("'%s'" % n for n in names) or "it has none"))
        return names.index(condition)
    return int(condition)


class Simulation:
    """One flock of a scene stepped through its timeline (a murmur session).

    positions and velocities are N x 2 float64 arrays that view the
    engine's own memory, not copies: they are valid until the next step()
    or set() and must not be kept past it (copy them: sim.positions.copy()).
    They are read-only."""

    def __init__(self, scene, condition=None, run=None, threads=0):
        self.scene = scene  # kept alive: the session reads it
        o = _lib.opts(_lib.SessionOpts, lib.mur_session_opts_init)
        o.threads = int(threads)
        o.condition = _condition_index(scene, condition)
        o.run = -1 if run is None else int(run)
        # The flag the session polls in every long loop, for its whole life:
        # each long call points Ctrl-C at it (_progress.interruptible).
        self._stop = ctypes.c_int(0)
        o.stop = ctypes.pointer(self._stop)
        self._ptr = c_void_p()
        self._metrics_ctx = None
        err = _errors.new()
        with _progress.interruptible(self._stop):
            _errors.check(lib.mur_session_create(byref(self._ptr), scene._ptr, byref(o), byref(err)), err)

    def __del__(self):
        if getattr(self, "_ptr", None):
            lib.mur_session_destroy(self._ptr)
            self._ptr = None
        if getattr(self, "_metrics_ctx", None):
            lib.mur_metrics_ctx_destroy(self._metrics_ctx)
            self._metrics_ctx = None

    @property
    def tick(self):
        """Ticks run, counted from the first frame (0 after the warm-up)."""
        return lib.mur_session_tick(self._ptr)

    @property
    def panels(self):
        return lib.mur_session_panels(self._ptr)

    def step(self, n=1):
        """Run n ticks through the scene's timeline."""
        if n < 0:
            raise ValueError("a simulation steps forward only")
        err = _errors.new()
        with _progress.interruptible(self._stop):
            _errors.check(lib.mur_session_run_to(self._ptr, self.tick + int(n), byref(err)), err)
        return self

    def set(self, **settings):
        """Change model settings from the next tick on, as a timeline `set`
        does: sim.set(alignment=0). They change the settings the timeline
        starts from, so the scene's own timeline entries of the same setting
        still apply on top. A choice is given by its index."""
        err = _errors.new()
        for name, value in settings.items():
            _errors.check(lib.mur_session_set(self._ptr, name.encode(), float(value), byref(err)), err)
        return self

    def _flock(self, panel):
        f = lib.mur_session_flock(self._ptr, int(panel))
        if not f:
            raise IndexError("panel %d of %d" % (panel, self.panels))
        return f

    def _view(self, panel, xs, ys):
        f = self._flock(panel)
        n = lib.mur_flock_count(f)
        if n == 0:
            return np.empty((0, 2))
        ax, ay = xs(f), ys(f)
        # One N x 2 view over the two columns the flock keeps (x[] and
        # y[]): row stride 8 bytes, column stride the distance between them.
        lo = min(ax, ay)
        span = abs(ay - ax) + n * 8
        buf = (ctypes.c_char * span).from_address(lo)
        a = np.ndarray((n, 2), dtype=np.float64, buffer=buf, offset=ax - lo, strides=(8, ay - ax))
        a.flags.writeable = False
        return a

    def positions_of(self, panel):
        return self._view(panel, lib.mur_flock_x, lib.mur_flock_y)

    def velocities_of(self, panel):
        return self._view(panel, lib.mur_flock_vx, lib.mur_flock_vy)

    @property
    def positions(self):
        """N x 2 positions (x, y), world units, of panel 0: a view, valid until the next step."""
        return self.positions_of(0)

    @property
    def velocities(self):
        """N x 2 velocities (vx, vy), world units per tick, of panel 0: a view, as positions."""
        return self.velocities_of(0)

    def metrics(self, panel=0):
        """The flock's metrics now (docs/model.md): {"order": ..., "nearest": ..., ...}."""
        if not self._metrics_ctx:
            self._metrics_ctx = lib.mur_metrics_ctx_create()
            if not self._metrics_ctx:
                raise MemoryError("metrics scratch")
        m = ctypes.create_string_buffer(_lib.METRICS_BYTES)
        rc = lib.mur_metrics_compute(self._metrics_ctx, self._flock(panel), m)
        if rc:
            raise _errors.MurmurError("metrics failed (%d)" % rc, rc)
        return {name: lib.mur_metrics_value(m, k) for k, name in enumerate(_lib.METRICS)}
