#include "CKindredSQLite.h"

// The symbol comes from SQLiteNIO's bundled SQLite (VaporCSQLite), which every product using
// KindredStore links. Its header is not reachable from this package, so the two declarations
// needed are repeated here, as that header has them.
int sqlite_nio_sqlite3_db_config(void *db, int op, ...);
#define KINDRED_SQLITE_DBCONFIG_ENABLE_QPSG 1007

int kindred_sqlite_enable_qpsg(void *db) {
    int enabled = 0;
    int code = sqlite_nio_sqlite3_db_config(db, KINDRED_SQLITE_DBCONFIG_ENABLE_QPSG, 1, &enabled);
    if (code == 0 && enabled != 1) {
        return 1;  // SQLITE_ERROR: the setting did not take
    }
    return code;
}
