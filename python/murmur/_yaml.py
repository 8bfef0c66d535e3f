"""A scene given as a dict written as block YAML for libmurmur's loader
(libyaml), one key a line, so an error's line and column point at a key
of the dict as they would in a file. Only what a scene holds: mappings
with string keys, lists, strings, numbers, booleans and None."""
import json
import math
import re

_PLAIN = re.compile(r"^[A-Za-z_./][A-Za-z0-9_ ./+-]*$")
_WORDS = {"true", "false", "yes", "no", "on", "off", "null", "~", "y", "n"}


def _scalar(v):
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "true" if v else "false"
    if isinstance(v, int):
        return str(v)
    if isinstance(v, float):
        if not math.isfinite(v):
            raise ValueError("a scene holds finite numbers, not %r" % v)
        return repr(v)
    if isinstance(v, str):
        if _PLAIN.match(v) and v.lower() not in _WORDS and not v.endswith(" "):
            return v
        return json.dumps(v)  # a JSON string is a YAML double-quoted scalar
    if hasattr(v, "item"):  # a numpy scalar
        return _scalar(v.item())
    raise TypeError("a scene holds mappings, lists, strings and numbers, not %s" % type(v).__name__)


def _emit(v, indent, out):
    pad = " " * indent
    if isinstance(v, dict):
        if not v:
            out[-1] += " {}"
        for k, item in v.items():
            if not isinstance(k, str):
                raise TypeError("scene keys are strings, not %r" % (k,))
            if isinstance(item, (dict, list, tuple)) and item:
                out.append("%s%s:" % (pad, _scalar(k)))
                _emit(item, indent + 2, out)
            else:
                out.append("%s%s: %s" % (pad, _scalar(k), _flow(item)))
    elif isinstance(v, (list, tuple)):
        for item in v:
            if isinstance(item, dict) and item:
                out.append("%s-" % pad)
                _emit(item, indent + 2, out)
            elif isinstance(item, (list, tuple)) and item:
                out.append("%s-" % pad)
                _emit(item, indent + 2, out)
            else:
                out.append("%s- %s" % (pad, _flow(item)))
    else:
        out.append(pad + _scalar(v))


def _flow(v):
    if isinstance(v, dict):
        return "{}"
    if isinstance(v, (list, tuple)):
        return "[]"
    return _scalar(v)


def dump(d):
    if not isinstance(d, dict):
        raise TypeError("a scene is a dict, not %s" % type(d).__name__)
    out = []
    _emit(d, 0, out)
    return "\n".join(out) + "\n"
