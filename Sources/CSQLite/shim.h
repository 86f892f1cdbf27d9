// SQLite 3 from the system (Debian: libsqlite3-dev), for the persistent local cache.
#include <sqlite3.h>
