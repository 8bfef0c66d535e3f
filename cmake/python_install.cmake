# Installs python/murmur (run by `cmake --install` through install(CODE)).
# Enters with MURMUR_PY_SRC (the package's folder), MURMUR_PY_DIR (where
# to install it: empty for the default, else relative to the prefix or
# absolute), MURMUR_PY_EXE (the python3 the default is asked of),
# MURMUR_PY_LIBDIR and MURMUR_PY_SONAME (the library _config.py names),
# MURMUR_PY_BUILD (the build folder, where _config.py is written first).
#
# The default is where that python3 reads modules of this prefix: Debian's
# /usr/lib/python3/dist-packages for /usr, lib/python3.X/dist-packages
# under another prefix on Debian (as /usr/local), else sysconfig's
# purelib of the prefix scheme.
set(_prefix "${CMAKE_INSTALL_PREFIX}")
set(_dir "${MURMUR_PY_DIR}")
if(_dir STREQUAL "")
  if(_prefix STREQUAL "/usr")
    set(_dir lib/python3/dist-packages)
  else()
    execute_process(COMMAND "${MURMUR_PY_EXE}" -c
      "import sys, sysconfig\nv = '%d.%d' % sys.version_info[:2]\nif 'deb_system' in sysconfig.get_scheme_names():\n    print('lib/python%s/dist-packages' % v)\nelse:\n    print(sysconfig.get_path('purelib', 'posix_prefix', vars={'base': '@', 'platbase': '@'})[2:])"
      OUTPUT_VARIABLE _dir OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE _rc)
    if(NOT _rc EQUAL 0 OR _dir STREQUAL "")
      message(FATAL_ERROR "murmur: cannot ask ${MURMUR_PY_EXE} where modules go; set MURMUR_PYTHON_DIR")
    endif()
  endif()
endif()
if(NOT IS_ABSOLUTE "${_dir}")
  set(_dir "${_prefix}/${_dir}")
endif()
set(_libdir "${MURMUR_PY_LIBDIR}")
if(NOT IS_ABSOLUTE "${_libdir}")
  set(_libdir "${_prefix}/${_libdir}")
endif()
file(INSTALL "${MURMUR_PY_SRC}" DESTINATION "${_dir}" FILES_MATCHING PATTERN "*.py"
     PATTERN "__pycache__" EXCLUDE)
# The library this module was installed with, found without the loader's
# search (a prefix the loader does not know works too).
set(_cfg "${MURMUR_PY_BUILD}/python-config/_config.py")
# Under /usr the library is in the loader's own folders (the multiarch
# one on Debian): the soname alone, so the module is the same on every
# architecture (python3-murmur is Architecture: all).
set(_library "${_libdir}/${MURMUR_PY_SONAME}")
if(_prefix STREQUAL "/usr")
  set(_library "${MURMUR_PY_SONAME}")
endif()
file(WRITE "${_cfg}" "# Written by cmake --install: the libmurmur this module was installed with.\nLIBRARY = \"${_library}\"\n")
file(INSTALL "${_cfg}" DESTINATION "${_dir}/murmur")
