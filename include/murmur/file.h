/* murmur: how every writer names, cleans up and guards its files.
 *
 * A file appears at its final name only when complete: it is written under
 * a hidden temporary name beside it, "<dir>/.<base><suffix>.part.<pid>",
 * and renamed. A writer that is killed leaves its temporary behind; the next
 * writer of the same target removes those of processes that no longer
 * exist, never one of a live process. A folder of numbered frames is locked
 * while a render writes it, so two renders cannot interleave their frames. */
#ifndef MURMUR_FILE_H
#define MURMUR_FILE_H

#include <stdio.h>

#include "murmur/error.h"
#include "murmur/export.h"

#ifdef __cplusplus
extern "C" {
#endif

/// The temporary name beside path, "<dir>/.<base><suffix>.part.<pid>" (suffix
/// may be ""): same directory, so rename(2) is atomic; this process's id, so
/// two writers never share one. NULL when out of memory; the caller frees it.
/// Whether path names an HDF5 file by its extension: .h5, .hdf5 or .h5md
/// (a trace's, a replay's or a saved state's; a dot in a folder's name does not count).
MUR_API int mur_file_is_hdf5(const char *path);

MUR_API char *mur_file_temp_name(const char *path, const char *suffix);

/// Accepts (non-zero) the stem of a temporary name: what lies between the
/// leading '.' and ".part.<pid>" ("x.mp4" for ".x.mp4.part.12").
typedef int (*mur_file_stem_match)(const char *stem, void *ctx);

/// Removes the regular files of directory dir ("" or NULL: the current one)
/// named ".<stem>.part.<pid>" whose stem match accepts and whose process pid
/// is gone (kill(pid, 0) fails with ESRCH). Returns how many it removed;
/// failures (an unreadable folder, a file already removed) are skipped.
MUR_API int mur_file_sweep(const char *dir, mur_file_stem_match match, void *ctx);

/// mur_file_sweep for the temporaries mur_file_temp_name(path, suffix) of
/// dead processes. Returns how many it removed.
MUR_API int mur_file_sweep_temps(const char *path, const char *suffix);

/// Whether path may be read as an input file (a recording, a shard, a
/// chunk, a shard's scene): a regular file of at most max_bytes (0: any
/// size). A pipe or a device would block a reader until killed or feed it
/// without end, so every reader asks this before it opens anything. 0, or
/// -1 with the reason in why (n bytes): "cannot be read: ...", "is a pipe,
/// not a regular file", "is N bytes, more than ... may have".
MUR_API int mur_file_check_input(const char *path, long long max_bytes, char *why, size_t n);

/// Non-zero when path names something that is not a regular file (a
/// device such as /dev/null, a pipe, a socket; a symbolic link is followed):
/// written in place, since renaming over it would replace it.
MUR_API int mur_file_is_special(const char *path);

/// Whether path can be an output file, asked before any work is done (the
/// one check every writer's command makes). An existing directory: MUR_EINPUT,
/// "'PATH' is a directory: give the output a file name" (the rename at the
/// end would fail and the work be lost). Else the folder it goes in must
/// exist and take new files (writers create a temporary there and rename
/// it), and a device or a pipe (written in place) must itself be writable:
/// MUR_ERUN, "cannot write 'PATH': REASON" (No such file or directory, Not a
/// directory, Permission denied, Read-only file system). MUR_OK when it can
/// be written. Creates and writes nothing.
MUR_API int mur_file_check_output(const char *path, mur_error *err);

/// A file being written atomically: under a temporary name beside its
/// final one, renamed onto it by mur_atomic_commit, removed by
/// mur_atomic_abort. A device or a pipe is written in place instead, since
/// renaming over it would replace it. A zeroed struct is "nothing begun".
typedef struct mur_atomic {
    char *path;        ///< the final name (a copy)
    char *tmp;         ///< what is written: the temporary name, or path itself when special
    int special;       ///< path is a device, a pipe or a socket: written in place
    FILE *fp;          ///< the stream of mur_atomic_fopen, or NULL
    int error;         ///< errno of the first failed write, for the writer to set; commit reports it
} mur_atomic;

/// Flags of mur_atomic_begin.
enum {
    MUR_ATOMIC_SWEPT = 1,   ///< the caller swept the folder already (mur_file_sweep): don't
};

/// Begins writing path: chooses the temporary name (mur_file_temp_name(path,
/// "")) and, unless flags has MUR_ATOMIC_SWEPT, removes the temporaries of
/// dead processes for path; a special file is written in place. Creates no
/// file. 0, or MUR_ERUN ("out of memory writing 'PATH'") with a zeroed.
MUR_API int mur_atomic_begin(mur_atomic *a, const char *path, unsigned flags, mur_error *err);

/// Opens a->tmp with fopen's mode and keeps the stream in a->fp (closed by
/// commit or abort). The stream, or NULL with MUR_ERUN in err ("cannot write
/// 'PATH': REASON"); a stays begun either way.
MUR_API FILE *mur_atomic_fopen(mur_atomic *a, const char *mode, mur_error *err);

/// Publishes the file: closes a->fp if open, then renames a->tmp to a->path
/// (a special file is already in place). A failed write (a->error, the
/// stream's error flag or its close) fails with "cannot write 'PATH':
/// REASON", a failed rename with "cannot rename 'TMP' to 'PATH': REASON";
/// then the temporary is removed. Frees and zeroes a either way. 0 or MUR_ERUN.
MUR_API int mur_atomic_commit(mur_atomic *a, mur_error *err);

/// Gives the file up: closes a->fp if open, removes the temporary (never a
/// special file), frees and zeroes a. Safe on a zeroed a, and twice.
MUR_API void mur_atomic_abort(mur_atomic *a);

/// Write text to path atomically (mur_atomic_*): all of it or, on failure,
/// nothing at path. For a CSV's provenance sidecar, PATH.provenance.txt.
MUR_API int mur_file_write_text(const char *path, const char *text, mur_error *err);

/// Locks folder dir for this process until mur_file_unlock_dir, through the
/// hidden file "<dir>/.murmur.lock" (flock(2): released by the kernel when
/// the process dies, so a dead holder never blocks). Returns its descriptor;
/// or -1 with errno EWOULDBLOCK and *holder set to the holder's pid (0 when
/// unknown) if another writer holds it; or -1 with errno set on failure.
MUR_API int mur_file_lock_dir(const char *dir, long *holder);

/// Releases the lock fd of mur_file_lock_dir(dir) and removes the lock file.
/// Accepts fd -1 (nothing to do).
MUR_API void mur_file_unlock_dir(const char *dir, int fd);

#ifdef __cplusplus
}
#endif

#endif
