"""The Python module against an installed libmurmur (tests/python.sh
installs the build into a fresh prefix and runs these with Debian's
python3: under pytest when it is installed, else run.py). MURMUR_EXE
names the murmur command whose output a render must equal."""
import csv
import ctypes
import os
import signal
import subprocess
import tempfile

import numpy as np

import murmur
from murmur import _lib

MURMUR = os.environ.get("MURMUR_EXE", "murmur")
TMP = tempfile.mkdtemp(prefix="murmur-python-")

SCENE = """seed: 7
flock: {count: 80}
world: {width: 240, height: 160}
video: {width: 96, height: 64, fps: 10, duration: 2s, ticks_per_second: 20}
experiment: {runs: 3, ticks: 12}
timeline:
  - {at: 1s, set: {alignment: 0.2}}
"""


def scene_file(text=SCENE, name="scene.yaml"):
    path = os.path.join(TMP, name)
    with open(path, "w") as f:
        f.write(text)
    return path


def frame_hashes(path):
    """One MD5 per decoded frame (ffmpeg's framemd5), the header left out."""
    out = subprocess.run(["ffmpeg", "-v", "error", "-i", path, "-f", "framemd5", "-"], check=True,
                         capture_output=True, text=True).stdout
    return [line.split(",")[-1].strip() for line in out.splitlines() if line and not line.startswith("#")]


def test_positions_are_a_view_of_the_engines_memory_and_equal_a_trace():
    path = scene_file()
    scene = murmur.load(path)
    sim = scene.simulation()
    trace = scene.trace(os.path.join(TMP, "trace.csv"), start=0, end=15)
    rows = {}
    with open(trace) as f:
        for row in csv.DictReader(f):
            rows.setdefault(int(row["tick"]), []).append(row)
    for tick in (0, 5, 15):
        sim.step(tick - sim.tick)
        assert sim.tick == tick
        want = np.array([[float(r["x"]), float(r["y"])] for r in rows[tick]])
        wantv = np.array([[float(r["vx"]), float(r["vy"])] for r in rows[tick]])
        assert np.array_equal(sim.positions, want), "tick %d positions" % tick
        assert np.array_equal(sim.velocities, wantv), "tick %d velocities" % tick
    # no copy: column 0 starts at the flock's x array, column 1 at its y
    flock = _lib.lib.mur_session_flock(sim._ptr, 0)
    p = sim.positions
    assert p[:, 0].ctypes.data == _lib.lib.mur_flock_x(flock)
    assert p[:, 1].ctypes.data == _lib.lib.mur_flock_y(flock)
    n = _lib.lib.mur_flock_count(flock)
    x = np.ctypeslib.as_array(ctypes.cast(_lib.lib.mur_flock_x(flock), ctypes.POINTER(ctypes.c_double)), (n,))
    assert np.array_equal(p[:, 0], x)
    assert not p.flags.writeable


def test_a_scene_error_carries_file_line_and_column():
    try:
        murmur.Scene.from_yaml("seed: 1\nflock:\n  count: -5\n", name="bad.yaml")
    except murmur.SceneError as e:
        assert (e.file, e.line, e.column) == ("bad.yaml", 3, 10), (e.file, e.line, e.column)
        assert "count" in e.message and not e.message.startswith("bad.yaml")
    else:
        raise AssertionError("no SceneError")
    path = scene_file("seed: 1\nvideo: {fps: 30}\nflok: {count: 3}\n", "typo.yaml")
    try:
        murmur.load(path)
    except murmur.SceneError as e:
        assert e.file == path and e.line == 3 and "flok" in e.message, str(e)
    else:
        raise AssertionError("no SceneError")


def test_a_dict_scene_is_the_yaml_scene():
    d = {"seed": 7, "flock": {"count": 80}, "world": {"width": 240, "height": 160},
         "video": {"width": 96, "height": 64, "fps": 10, "duration": "2s", "ticks_per_second": 20},
         "experiment": {"runs": 3, "ticks": 12},
         "timeline": [{"at": "1s", "set": {"alignment": 0.2}}]}
    a = murmur.Scene.from_dict(d).simulation().step(30)
    b = murmur.Scene.from_yaml(SCENE).simulation().step(30)
    assert np.array_equal(a.positions, b.positions)
    try:
        murmur.Scene.from_dict({"seed": 1, "flock": {"cont": 3}})
    except murmur.SceneError as e:
        assert e.line == 3 and "cont" in e.message, str(e)
    else:
        raise AssertionError("no SceneError")


def test_set_changes_a_setting_from_the_next_tick_as_a_timeline_set():
    scene = murmur.Scene.from_yaml(SCENE)
    a, b = scene.simulation(), scene.simulation()
    a.step(4)
    b.step(4)
    a.set(alignment=0, cohesion=0)
    a.step(3)
    b.step(3)
    assert not np.array_equal(a.positions, b.positions)
    c = murmur.Scene.from_yaml(SCENE.replace("flock: {count: 80}", "flock: {count: 80}\n"))
    try:
        a.set(fov=400)
    except murmur.SceneError as e:
        assert "fov" in e.message
    else:
        raise AssertionError("fov 400 taken")
    assert set(a.metrics()) == set(murmur.METRICS) and 0 <= a.metrics()["order"] <= 1
    assert c.frames == 20


def test_a_render_equals_the_clis_frames():
    path = scene_file()
    cli = os.path.join(TMP, "cli.mp4")
    subprocess.run([MURMUR, "render", path, "-o", cli, "--size", "64x48", "-q"], check=True)
    video = murmur.load(path).render(os.path.join(TMP, "py.mp4"), size="64x48")
    assert (video.frames, video.width, video.height) == (20, 64, 48)
    a, b = frame_hashes(cli), frame_hashes(video.path)
    assert len(a) == 20 and a == b
    assert "<video" in video._repr_html_()


def test_a_still_is_rgba_and_a_file():
    scene = murmur.Scene.from_yaml(SCENE)
    im = scene.still(at="1s")
    assert im.shape == (64, 96, 4) and im.dtype == np.uint8 and (im[:, :, 3] == 255).all()
    assert im._repr_png_().startswith(b"\x89PNG")
    png = scene.still(at="1s", path=os.path.join(TMP, "still.png"))
    cli = os.path.join(TMP, "cli.png")
    subprocess.run([MURMUR, "still", scene_file(), "--at", "1s", "-o", cli, "-q"], check=True)
    assert decoded(png) == decoded(cli)


def decoded(png):
    """The pixels of a PNG as ffmpeg decodes them (provenance text left out)."""
    return subprocess.run(["ffmpeg", "-v", "error", "-i", png, "-f", "rawvideo", "-pix_fmt", "rgba", "-"],
                          check=True, capture_output=True).stdout


def test_a_custom_statistic_appears_in_the_table_and_the_per_run_values():
    scene = murmur.Scene.from_yaml(SCENE)

    def xi(positions, velocities):
        return float(np.mean(positions[:, 0]) + np.mean(velocities[:, 1]))
    runs = scene.stats(per_run=True, extra={"xi": xi})
    rows = runs.to_dict("records") if hasattr(runs, "to_dict") else list(runs)
    assert len(rows) == 3 and all("xi" in r and "order" in r for r in rows)
    for r in rows:
        sim = scene.simulation(run=r["run"]).step(12)
        assert r["xi"] == xi(sim.positions, sim.velocities), r
        assert r["order"] == sim.metrics()["order"], r
    table = scene.stats(extra={"xi": xi})
    rows = table.to_dict("records") if hasattr(table, "to_dict") else list(table)
    got = [r for r in rows if r["metric"] == "xi"]
    assert len(got) == 1 and got[0]["n"] == 3
    per_run = runs.to_dict("records") if hasattr(runs, "to_dict") else list(runs)
    assert got[0]["median"] == sorted(r["xi"] for r in per_run)[1]

    def broken(positions, velocities):
        raise ZeroDivisionError("mine")
    try:
        scene.stats(extra={"bad": broken})
    except ZeroDivisionError as e:
        assert "mine" in str(e)
    else:
        raise AssertionError("the statistic's exception was lost")


def test_the_stats_table_is_the_clis():
    path = scene_file()
    out = os.path.join(TMP, "stats.csv")
    subprocess.run([MURMUR, "stats", path, "-o", out, "-q"], check=True)
    with open(out) as f:
        cli = {row["metric"]: row for row in csv.DictReader(line for line in f if not line.startswith("#"))}
    table = murmur.load(path).stats()
    rows = table.to_dict("records") if hasattr(table, "to_dict") else list(table)
    checked = []
    for r in rows:
        if r["metric"] in cli:
            want = float(cli[r["metric"]]["median"])  # the CSV's 9 significant digits
            assert abs(want - r["median"]) <= 1e-8 * max(1.0, abs(want)), (r, cli[r["metric"]])
            checked.append(r["metric"])
    assert sorted(checked) == sorted(cli) and len(checked) >= 6, (checked, list(cli))


def test_ctrl_c_stops_a_render_leaving_a_playable_file():
    path = os.path.join(TMP, "stopped.mp4")
    seen = []

    def progress(done, total):
        seen.append(done)
        if done == 3:
            os.kill(os.getpid(), signal.SIGINT)
    try:
        murmur.Scene.from_yaml(SCENE).render(path, progress=progress)
    except KeyboardInterrupt:
        pass
    else:
        raise AssertionError("no KeyboardInterrupt")
    frames = frame_hashes(path)
    assert 3 <= len(frames) < 20, len(frames)
    assert seen[-1] == len(frames)
    assert signal.getsignal(signal.SIGINT) is signal.default_int_handler
