"""Progress and Ctrl-C around a long libmurmur call.

A ctypes call runs C code with the interpreter waiting, so Python's own
SIGINT handler (KeyboardInterrupt) would run only after the call returned.
Instead, for the call's length, SIGINT sets the C options' stop flag: the
library's loops poll it and end cleanly (a render finalises the frames it
drew, as `murmur render` does on Ctrl-C), and KeyboardInterrupt is raised
once the call is back. Python runs that handler whenever the main thread
runs Python code, which it does in the progress callback after every frame
or run: so a progress callback is always installed.
"""
import contextlib
import ctypes
import signal
import sys
import threading


class _Bar:
    """progress=True: a tqdm bar when tqdm is installed, else one line on stderr."""

    def __init__(self, what):
        self.what = what
        self.bar = None
        try:
            import tqdm
            self.bar = tqdm.tqdm(desc=what, unit=" " + what.split()[-1])
        except ImportError:
            pass

    def __call__(self, done, total):
        if self.bar is not None:
            self.bar.total = total
            self.bar.n = done
            self.bar.refresh()
        else:
            sys.stderr.write("\r%s %d/%d" % (self.what, done, total))
            if done == total:
                sys.stderr.write("\n")
            sys.stderr.flush()

    def close(self):
        if self.bar is not None:
            self.bar.close()


def reporter(progress, what):
    """progress: None or False (nothing), True (a bar), or a callable(done, total)."""
    if progress is True:
        return _Bar(what)
    if progress in (None, False):
        return None
    if not callable(progress):
        raise TypeError("progress must be True, False, None or a callable(done, total)")
    return progress


@contextlib.contextmanager
def interruptible(stop=None):
    """Yields a C int (stop, or a new one) to pass as the options' stop
    flag, cleared; SIGINT sets it
    while the block runs (in the main thread; elsewhere signals are not
    Python's to take). KeyboardInterrupt is raised after the block when it
    was set, whatever the block returned."""
    if stop is None:
        stop = ctypes.c_int(0)
    stop.value = 0
    main = threading.current_thread() is threading.main_thread()
    old = None
    if main:
        def on_sigint(signum, frame):
            stop.value = 1
        old = signal.signal(signal.SIGINT, on_sigint)
    interrupted = False
    try:
        try:
            yield stop
        except KeyboardInterrupt:
            interrupted = True
    finally:
        if main:
            signal.signal(signal.SIGINT, old)
    if interrupted or stop.value:
        raise KeyboardInterrupt
