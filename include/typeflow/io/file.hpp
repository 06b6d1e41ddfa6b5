// typeflow/io/file.hpp — files written atomically and durably, and stream buffers.
//
// A checkpoint or state file is written to a temporary file beside its final name
// ("<name>.tmp.<random>", created with O_EXCL), flushed, fsync'ed, renamed over the final
// name, and then the directory is fsync'ed: a crash at any moment leaves either the old
// file or the complete new one, never a partial one (Pillai et al., OSDI'14). Every write
// error (a full disk, RLIMIT_FSIZE, an I/O error) is reported as typeflow::unknown_error
// naming the file, and the temporary file is removed.
//
// A checkpoint being restored can also be mapped read-only (mapped_file), so that its
// tensors are verified where they lie in the page cache and copied once.
//
// Files are read only when they are regular files: open_regular_file opens without
// blocking (O_NONBLOCK, so a FIFO cannot hang the program) and checks with fstat, and
// anything else (a directory, a FIFO, a socket, a device) is FailedPrecondition naming the
// path and what it is.
//
// POSIX only (open, write, fsync, rename, mmap).
//
// The parts: io/file/durable.hpp (atomic, durable writes), io/file/mapped.hpp (read-only
// mappings), io/file/reading.hpp (regular files only, the input stream buffers).
#pragma once

#include "typeflow/io/file/durable.hpp"
#include "typeflow/io/file/mapped.hpp"
#include "typeflow/io/file/reading.hpp"
