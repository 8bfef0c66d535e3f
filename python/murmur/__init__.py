"""murmur from Python: scenes, simulations, renders, stills, statistics and
traces of libmurmur (docs/python.md), through its C API with ctypes.

    import murmur
    scene = murmur.load("scenes/flock.yaml")
    sim = scene.simulation()
    sim.step(100)
    sim.positions            # N x 2 numpy view of the engine's memory
    scene.render("flock.mp4", size="720p")
    scene.stats(runs=25)     # a pandas DataFrame when pandas is installed
"""
from ._errors import MurmurError, SceneError
from ._lib import lib as _c
from ._media import Image, Video
from ._scene import Scene, Simulation

__all__ = ["load", "Scene", "Simulation", "Image", "Video", "SceneError", "MurmurError",
           "__version__", "METRICS"]

__version__ = _c.mur_version().decode()

from ._lib import METRICS  # noqa: E402  names of the built-in metrics, in order


def load(path):
    """Load a scene file (docs/scenes.md); a bad one raises SceneError."""
    return Scene.load(path)
