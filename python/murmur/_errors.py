"""Errors: libmurmur's one-line messages as Python exceptions."""
import re

from . import _lib

MUR_EINPUT = -2
MUR_ERUN = -1
MUR_EINTR = -3

_WHERE = re.compile(r"^(?P<file>[^:\n]+):(?P<line>\d+):(?P<col>\d+): (?:error: )?(?P<msg>.*)$", re.S)
_FILE = re.compile(r"^(?P<file>[^:\n ]+): (?:error: )?(?P<msg>.*)$", re.S)


class MurmurError(Exception):
    """A failing libmurmur call: code is MUR_EINPUT (-2, the input must
    change) or MUR_ERUN (-1, I/O, the encoder, memory)."""

    def __init__(self, message, code=MUR_ERUN):
        super().__init__(message)
        self.message = message
        self.code = code


class SceneError(MurmurError, ValueError):
    """A bad scene or a bad argument: file, line and column (None when the
    message names no place) and the message without them."""

    def __init__(self, text, code=MUR_EINPUT):
        super().__init__(text, code)
        self.file = self.line = self.column = None
        m = _WHERE.match(text)
        if m:
            self.file, self.line, self.column = m["file"], int(m["line"]), int(m["col"])
            self.message = m["msg"]
        else:
            m = _FILE.match(text)
            if m:
                self.file, self.message = m["file"], m["msg"]


def text(err):
    return err.msg.decode("utf-8", "replace").strip()


def check(rc, err):
    """Raise for a failing return code: SceneError for MUR_EINPUT,
    KeyboardInterrupt for MUR_EINTR, MurmurError otherwise."""
    if rc == 0:
        return
    if rc == MUR_EINPUT:
        raise SceneError(text(err))
    if rc == MUR_EINTR:
        raise KeyboardInterrupt(text(err) or "stopped")
    raise MurmurError(text(err) or "libmurmur failed (%d)" % rc, rc)


def new():
    return _lib.Error()
