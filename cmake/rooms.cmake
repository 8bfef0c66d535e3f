# The rooms of the house (docs/DESIGN.md "The shape"): each folder of src/ is
# one room, an object library that sees only the public headers of the rooms
# it may use, so an include across a forbidden edge fails to compile. The
# top-level CMakeLists.txt builds the rooms from this table and
# tests/layers.cmake checks every source's includes against it (the
# relative includes of another room's private headers too).
#
# MURMUR_ROOM_<room>_HEADERS: the public headers (include/murmur/) it owns.
# MURMUR_ROOM_<room>_USES:    the rooms whose headers it may include.
set(MURMUR_ROOMS util core stats data scene experiment render figure output session)

set(MURMUR_ROOM_util_HEADERS alloc error export file limits numfmt version)
set(MURMUR_ROOM_util_USES)
set(MURMUR_ROOM_core_HEADERS family flock look metrics presets rng)
set(MURMUR_ROOM_core_USES util)
set(MURMUR_ROOM_stats_HEADERS stats divergence)
set(MURMUR_ROOM_stats_USES util core)
set(MURMUR_ROOM_data_HEADERS recording trace_writer)
set(MURMUR_ROOM_data_USES util core)
set(MURMUR_ROOM_scene_HEADERS scene variant)
set(MURMUR_ROOM_scene_USES util core stats data)
set(MURMUR_ROOM_experiment_HEADERS experiment twin shard figure_data)
set(MURMUR_ROOM_experiment_USES util core stats data scene figure)
set(MURMUR_ROOM_render_HEADERS render)
set(MURMUR_ROOM_render_USES util core stats)
set(MURMUR_ROOM_figure_HEADERS plot chart)
set(MURMUR_ROOM_figure_USES util core stats render)
set(MURMUR_ROOM_output_HEADERS video)
set(MURMUR_ROOM_output_USES util)
set(MURMUR_ROOM_session_HEADERS session trace)
set(MURMUR_ROOM_session_USES util core stats data scene experiment render figure output)
# cli (the murmur command) and the umbrella header murmur.h see everything.

# The headers a room sees: its own and those of the rooms it uses.
function(murmur_room_headers room out)
  set(h ${MURMUR_ROOM_${room}_HEADERS})
  foreach(u ${MURMUR_ROOM_${room}_USES})
    list(APPEND h ${MURMUR_ROOM_${u}_HEADERS})
  endforeach()
  set(${out} ${h} PARENT_SCOPE)
endfunction()
