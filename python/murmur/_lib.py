"""libmurmur through ctypes: the library found and its functions declared.

Only the public C API (include/murmur/*.h) is used. Options structs are
filled by the library's own mur_*_opts_init(), so the defaults and the
version are libmurmur's; the fields this module sets are declared below in
header order and checked against the library at load (check_layouts).
"""
import ctypes
import ctypes.util
import os
from ctypes import (CFUNCTYPE, POINTER, Structure, byref, c_char, c_char_p, c_double, c_int,
                    c_int64, c_long, c_uint, c_uint8, c_void_p)

try:
    from . import _config
except ImportError:  # a source tree, not installed: MURMUR_LIBRARY or the loader's search
    _config = None

# The ABI this module was written for: the library's SOVERSION (MAJOR.MINOR).
SOVERSION = "0.2"


class Error(Structure):
    _fields_ = [("msg", c_char * 1024)]


sig_atomic_p = POINTER(c_int)  # volatile sig_atomic_t * (an int on Linux)

render_progress_fn = CFUNCTYPE(None, c_void_p, c_long, c_long, c_int64)
progress_fn = CFUNCTYPE(None, c_void_p, c_long, c_long)


class SessionOpts(Structure):  # mur_session_opts, version 2
    _fields_ = [("version", c_uint), ("threads", c_int), ("stop", sig_atomic_p),
                ("condition", c_int), ("run", c_int)]


class RenderOpts(Structure):  # mur_render_opts, version 4
    _fields_ = [("version", c_uint), ("path", c_char_p), ("first", c_long), ("last", c_long),
                ("preset", c_char_p), ("metadata", c_char_p), ("queue", c_int),
                ("progress", render_progress_fn), ("progress_ctx", c_void_p),
                ("subtitles", c_int), ("chunk", c_int), ("nchunks", c_int), ("loop", c_long)]


class RenderResult(Structure):
    _fields_ = [("frames", c_long), ("width", c_int), ("height", c_int)]


class TraceOpts(Structure):  # mur_trace_opts, version 2
    _fields_ = [("version", c_uint), ("path", c_char_p), ("condition", c_char_p), ("run", c_int),
                ("runs", c_int), ("first", c_long), ("last", c_long), ("every", c_long),
                ("float32", c_int), ("threads", c_int), ("stop", sig_atomic_p),
                ("progress", progress_fn), ("progress_ctx", c_void_p),
                ("shard", c_int), ("shards", c_int)]


# int (*)(void *ctx, const mur_flock *f, int c, int run, double *out)
extra_fn = CFUNCTYPE(c_int, c_void_p, c_void_p, c_int, c_int, POINTER(c_double))


class ExperimentDef(Structure):  # mur_experiment_def, version 4
    _fields_ = [("version", c_uint), ("runs", c_int), ("ticks", c_long), ("scene_only", c_int),
                ("every_tick", c_int), ("threads", c_int), ("stop", sig_atomic_p),
                ("progress", progress_fn), ("progress_ctx", c_void_p), ("condition", c_char_p),
                ("shard", c_int), ("shards", c_int), ("nextra", c_int), ("extra", extra_fn),
                ("extra_ctx", c_void_p)]


class Variant(Structure):  # mur_variant
    _fields_ = [("width", c_int), ("height", c_int), ("fps", c_int), ("quality", c_int),
                ("draft", c_int)]


class Summary(Structure):  # mur_summary
    _fields_ = [("median", c_double), ("p10", c_double), ("p90", c_double), ("mean", c_double),
                ("n", c_int)]


# name: (restype, argtypes)
_FUNCTIONS = {
    "mur_version": (c_char_p, []),
    "mur_scene_load": (c_int, [POINTER(c_void_p), c_char_p, POINTER(Error)]),
    "mur_scene_parse": (c_int, [POINTER(c_void_p), c_char_p, c_char_p, ctypes.c_size_t, POINTER(Error)]),
    "mur_scene_destroy": (None, [c_void_p]),
    "mur_scene_vary": (c_int, [c_void_p, POINTER(Variant), POINTER(Error)]),
    "mur_size_parse": (c_int, [c_char_p, POINTER(c_int), POINTER(c_int)]),
    "mur_scene_frames": (c_long, [c_void_p]),
    "mur_scene_size": (None, [c_void_p, POINTER(c_int), POINTER(c_int)]),
    "mur_scene_fps": (c_double, [c_void_p]),
    "mur_scene_tps": (c_double, [c_void_p]),
    "mur_scene_conditions": (c_int, [c_void_p]),
    "mur_scene_condition_name": (c_char_p, [c_void_p, c_int]),
    "mur_scene_frame_tick": (c_long, [c_void_p, c_long]),
    "mur_session_opts_init": (None, [POINTER(SessionOpts)]),
    "mur_session_create": (c_int, [POINTER(c_void_p), c_void_p, POINTER(SessionOpts), POINTER(Error)]),
    "mur_session_destroy": (None, [c_void_p]),
    "mur_session_panels": (c_int, [c_void_p]),
    "mur_session_flock": (c_void_p, [c_void_p, c_int]),
    "mur_session_tick": (c_long, [c_void_p]),
    "mur_session_set": (c_int, [c_void_p, c_char_p, c_double, POINTER(Error)]),
    "mur_session_run_to": (c_int, [c_void_p, c_long, POINTER(Error)]),
    "mur_session_frame": (c_int, [c_void_p, c_long, POINTER(POINTER(c_uint8)), POINTER(c_int), POINTER(Error)]),
    "mur_session_still": (c_int, [c_void_p, c_long, c_char_p, POINTER(Error)]),
    "mur_session_frame_at": (c_int, [c_void_p, c_char_p, POINTER(c_long)]),
    "mur_render_opts_init": (None, [POINTER(RenderOpts)]),
    "mur_session_render": (c_int, [c_void_p, POINTER(RenderOpts), POINTER(RenderResult), POINTER(Error)]),
    "mur_session_provenance": (c_int, [c_void_p, c_char_p, POINTER(c_void_p), POINTER(Error)]),
    "mur_free": (None, [c_void_p]),
    "mur_trace_opts_init": (None, [POINTER(TraceOpts)]),
    "mur_trace_write": (c_int, [c_void_p, POINTER(TraceOpts), POINTER(Error)]),
    "mur_flock_count": (c_int, [c_void_p]),
    "mur_flock_x": (c_void_p, [c_void_p]),
    "mur_flock_y": (c_void_p, [c_void_p]),
    "mur_flock_vx": (c_void_p, [c_void_p]),
    "mur_flock_vy": (c_void_p, [c_void_p]),
    "mur_metric_info_at": (c_void_p, [c_int]),
    "mur_metric_name": (c_char_p, [c_int]),
    "mur_metrics_value": (c_double, [c_void_p, c_int]),
    "mur_metrics_ctx_create": (c_void_p, []),
    "mur_metrics_ctx_destroy": (None, [c_void_p]),
    "mur_metrics_compute": (c_int, [c_void_p, c_void_p, c_void_p]),
    "mur_experiment_def_init": (None, [POINTER(ExperimentDef)]),
    "mur_experiment_run": (c_int, [POINTER(c_void_p), c_void_p, POINTER(ExperimentDef), POINTER(Error)]),
    "mur_experiment_destroy": (None, [c_void_p]),
    "mur_experiment_conditions": (c_int, [c_void_p]),
    "mur_experiment_condition_name": (c_char_p, [c_void_p, c_int]),
    "mur_scene_find_condition": (c_int, [c_void_p, c_char_p, POINTER(Error)]),
    "mur_experiment_runs": (c_int, [c_void_p]),
    "mur_experiment_ticks": (c_long, [c_void_p]),
    "mur_experiment_value": (c_double, [c_void_p, c_int, c_int, c_int]),
    "mur_experiment_metrics_kept": (c_uint, [c_void_p]),
    "mur_experiment_nextra": (c_int, [c_void_p]),
    "mur_experiment_extra": (c_double, [c_void_p, c_int, c_int, c_int]),
    "mur_summary_compute": (None, [POINTER(Summary), POINTER(c_double), c_int]),
}


def _open():
    """The library: $MURMUR_LIBRARY, else the one this module was installed
    with, else the dynamic loader's libmurmur.so.SOVERSION."""
    names = [os.environ.get("MURMUR_LIBRARY")]
    if _config is not None:
        names.append(_config.LIBRARY)
    names += ["libmurmur.so." + SOVERSION, ctypes.util.find_library("murmur")]
    tried = []
    for name in names:
        if not name:
            continue
        try:
            return ctypes.CDLL(name)
        except OSError as e:
            tried.append(str(e))
    raise ImportError("murmur: libmurmur %s not found (set MURMUR_LIBRARY to its path): %s"
                      % (SOVERSION, "; ".join(tried)))


def _declare(lib):
    for name, (res, args) in _FUNCTIONS.items():
        f = getattr(lib, name)
        f.restype = res
        f.argtypes = args
    return lib


def _check_layout(init, cls, version):
    """init (a mur_*_opts_init) must write the version this module knows and
    nothing past the struct as declared here: a library whose struct grew
    or moved fails the import instead of corrupting memory."""
    size = ctypes.sizeof(cls)
    pad = 256
    buf = (c_uint8 * (size + pad))(*([0xA5] * (size + pad)))
    init(ctypes.cast(buf, POINTER(cls)))
    got = cls.from_buffer(buf).version
    if got != version or any(b != 0xA5 for b in buf[size:]):
        raise ImportError("murmur: %s of version %d in libmurmur, this module knows %d (rebuild both)"
                          % (cls.__name__, got, version))


def _quiet_libav():
    """libav logs every encoder's settings to stderr; as `murmur` does, only
    its errors are let through (a host that wants more may raise the level)."""
    name = ctypes.util.find_library("avutil")
    try:
        ctypes.CDLL(name).av_log_set_level(16)  # AV_LOG_ERROR
    except (OSError, AttributeError, TypeError):
        pass


lib = _declare(_open())
_quiet_libav()
_check_layout(lib.mur_session_opts_init, SessionOpts, 2)
_check_layout(lib.mur_render_opts_init, RenderOpts, 4)
_check_layout(lib.mur_trace_opts_init, TraceOpts, 2)
_check_layout(lib.mur_experiment_def_init, ExperimentDef, 4)

METRICS = []
while lib.mur_metric_info_at(len(METRICS)):
    METRICS.append(lib.mur_metric_name(len(METRICS)).decode())

# mur_metrics is written by the library; 64 doubles is more than it holds.
METRICS_BYTES = 64 * 8


def opts(cls, init):
    o = cls()
    init(byref(o))
    return o
