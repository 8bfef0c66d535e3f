"""What a scene draws: stills as RGBA images, rendered videos; both show
themselves in Jupyter (_repr_png_, _repr_html_)."""
import base64
import ctypes
import html
import os
import struct
import zlib
from ctypes import byref

import numpy as np

from . import _errors, _lib, _progress

lib = _lib.lib


def _png(rgba):
    """PNG bytes of an h x w x 4 uint8 array (zlib, no filter)."""
    h, w, _ = rgba.shape
    raw = b"".join(b"\x00" + rgba[y].tobytes() for y in range(h))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    return (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, 6, 0, 0, 0))
            + chunk(b"IDAT", zlib.compress(raw, 6)) + chunk(b"IEND", b""))


class Image(np.ndarray):
    """A still: height x width x 4 uint8, RGBA, not premultiplied."""

    @classmethod
    def from_argb32(cls, px, stride, width, height):
        # Cairo's ARGB32: native-endian 32-bit words, premultiplied; on a
        # little-endian machine the bytes are B, G, R, A.
        raw = np.ctypeslib.as_array(px, shape=(height * stride,)).reshape(height, stride)
        words = raw[:, :width * 4].copy().view(np.uint32).reshape(height, width)
        a = (words >> 24).astype(np.uint32)
        rgb = [(words >> shift) & 0xFF for shift in (16, 8, 0)]
        out = np.empty((height, width, 4), dtype=np.uint8)
        for i, c in enumerate(rgb):
            # un-premultiply, rounding as Cairo's PNG writer does
            with np.errstate(divide="ignore", invalid="ignore"):
                v = np.where(a == 0, 0, (c * 255 + a // 2) // np.maximum(a, 1))
            out[:, :, i] = np.minimum(v, 255)
        out[:, :, 3] = a
        return out.view(cls)

    def png(self):
        """The image as PNG bytes."""
        return _png(np.ascontiguousarray(self, dtype=np.uint8))

    def save(self, path):
        """Write the image as a PNG file."""
        with open(path, "wb") as f:
            f.write(self.png())
        return path

    def _repr_png_(self):
        return self.png()


class Video:
    """A rendered file: path, frames, width, height."""

    def __init__(self, path, frames, width, height):
        self.path, self.frames, self.width, self.height = path, frames, width, height

    def __repr__(self):
        return "Video(%r, %d frames, %dx%d)" % (self.path, self.frames, self.width, self.height)

    def __fspath__(self):
        return self.path

    def _repr_html_(self):
        ext = os.path.splitext(self.path)[1].lower()
        kind = {".mp4": "video/mp4", ".webm": "video/webm", ".mov": "video/quicktime"}.get(ext)
        if ext == ".gif":
            with open(self.path, "rb") as f:
                data = base64.b64encode(f.read()).decode()
            return '<img src="data:image/gif;base64,%s" width="%d">' % (data, self.width)
        if kind is None:
            return "<code>%s</code>" % html.escape(self.path)
        with open(self.path, "rb") as f:
            data = base64.b64encode(f.read()).decode()
        return ('<video controls width="%d"><source src="data:%s;base64,%s" type="%s"></video>'
                % (self.width, kind, data, kind))


def render(scene, path, start, end, condition, run, preset, threads, progress):
    from ._scene import Simulation  # a session of its own, at tick 0
    sim = Simulation(scene, condition, run, threads)
    o = _lib.opts(_lib.RenderOpts, lib.mur_render_opts_init)
    o.path = os.fsencode(path)
    o.first = scene.frame_at(start) if start is not None else 0
    o.last = scene.frame_at(end) if end is not None else -1
    o.preset = preset.encode() if preset else None
    meta = ctypes.c_void_p()
    err = _errors.new()
    request = ("render (Python): %s" % os.path.basename(path)).encode()
    _errors.check(lib.mur_session_provenance(sim._ptr, request, byref(meta), byref(err)), err)
    o.metadata = ctypes.cast(meta, ctypes.c_char_p)
    report = _progress.reporter(progress, "render frames")

    def hook(ctx, done, total, nbytes):
        if report:
            report(done, total)
    o.progress = _lib.render_progress_fn(hook)
    res = _lib.RenderResult()
    try:
        with _progress.interruptible(sim._stop):
            _errors.check(lib.mur_session_render(sim._ptr, byref(o), byref(res), byref(err)), err)
    finally:
        lib.mur_free(meta)
        if hasattr(report, "close"):
            report.close()
    return Video(path, res.frames, res.width, res.height)
