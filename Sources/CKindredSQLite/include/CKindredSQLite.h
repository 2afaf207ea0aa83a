#ifndef CKINDRED_SQLITE_H
#define CKINDRED_SQLITE_H

/// Turns on SQLite's query planner stability guarantee (SQLITE_DBCONFIG_ENABLE_QPSG) for the
/// connection `db` (an `sqlite3 *` of the library SQLiteNIO bundles): bound values no longer
/// shape a statement's plan, so a kept prepared statement is not re-prepared when its bindings
/// change. `sqlite3_db_config` is variadic, which Swift cannot call. Returns SQLite's result code.
int kindred_sqlite_enable_qpsg(void *db);

#endif
