// zlib (Debian zlib1g-dev): gzip for the mock server's compressed responses.
#ifndef SWIFT_FIRESTORE_CZLIB_SHIM_H
#define SWIFT_FIRESTORE_CZLIB_SHIM_H

#if __has_include(<zlib.h>)
#include <zlib.h>
#else
#error "zlib's headers are missing: install Debian's zlib1g-dev (apt-get install zlib1g-dev)"
#endif

// deflateInit2 is a macro, which Swift cannot call.
static inline int swiftfirestore_deflate_init_gzip(z_stream *stream, int level) {
  return deflateInit2(stream, level, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY);
}

#endif
