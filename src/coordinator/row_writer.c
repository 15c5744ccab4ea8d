/*-------------------------------------------------------------------------
 *
 * row_writer.c
 *		How the coordinator writes rows: each in a transaction of its own
 *		(a cancel or a crash loses at most the step in flight), as the
 *		extension's owner (a caller who was granted run_sweep needs no
 *		rights on the result tables), with search_path = pg_catalog,
 *		pg_temp as a restricted operation (nothing of the caller's reaches
 *		it), each row built from one list of (column, value) pairs, and the
 *		columns known from the schema's version, read once per sweep.
 *
 * IDENTIFICATION
 *	  src/coordinator/row_writer.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "catalog/pg_type.h"
#include "executor/spi.h"
#include "lib/stringinfo.h"
#include "miscadmin.h"
#include "utils/builtins.h"
#include "utils/guc.h"
#include "utils/snapmgr.h"

#include "coordinator/row_writer.h"

static Oid	wp_owner = InvalidOid;
static WpOwnerSave wp_saved;
static int	wp_schema = 0;

void
wp_xact_begin(void)
{
	SetCurrentStatementStartTimestamp();
	StartTransactionCommand();
	SPI_connect();
	PushActiveSnapshot(GetTransactionSnapshot());
}

void
wp_xact_end(void)
{
	SPI_finish();
	PopActiveSnapshot();
	CommitTransactionCommand();
}

/*
 * The extension's owner, read once (SPI connected).
 */
static Oid
wp_extension_owner(void)
{
	if (!OidIsValid(wp_owner))
	{
		int			rc = SPI_execute("SELECT extowner FROM pg_catalog.pg_extension "
									 "WHERE extname = 'walpressure'", true, 1);
		bool		isnull;

		if (rc != SPI_OK_SELECT || SPI_processed != 1)
			ereport(ERROR,
					(errcode(ERRCODE_UNDEFINED_OBJECT),
					 errmsg("extension \"walpressure\" is not installed in this database")));
		wp_owner = DatumGetObjectId(SPI_getbinval(SPI_tuptable->vals[0],
												  SPI_tuptable->tupdesc, 1, &isnull));
	}
	return wp_owner;
}

/*
 * Inside the current transaction (SPI connected), run what follows as the
 * extension's owner, with search_path = pg_catalog, pg_temp, as a restricted
 * operation: for a caller's write the caller was found allowed to make (an
 * import, a fleet's own rows) into tables the caller has no right to write.
 * wp_as_owner_end puts the caller back; an error does so too, with the
 * transaction's abort.
 */
void
wp_as_owner_begin(WpOwnerSave *save)
{
	GetUserIdAndSecContext(&save->user, &save->sec);
	save->nest = NewGUCNestLevel();
	(void) set_config_option("search_path", "pg_catalog, pg_temp", PGC_USERSET,
							 PGC_S_SESSION, GUC_ACTION_SAVE, true, 0, false);
	SetUserIdAndSecContext(wp_extension_owner(), save->sec | SECURITY_LOCAL_USERID_CHANGE |
						   SECURITY_RESTRICTED_OPERATION);
}

void
wp_as_owner_end(const WpOwnerSave *save)
{
	SetUserIdAndSecContext(save->user, save->sec);
	AtEOXact_GUC(false, save->nest);
}

/*
 * Begin a transaction whose SPI work runs as the extension's owner with a
 * safe search_path; ends with wp_owner_end().
 */
void
wp_owner_begin(void)
{
	wp_xact_begin();
	wp_as_owner_begin(&wp_saved);
}

void
wp_owner_end(void)
{
	wp_as_owner_end(&wp_saved);
	wp_xact_end();
}

/* The role the rows are written for (the caller's), inside wp_owner_begin. */
Oid
wp_owner_caller(void)
{
	return wp_saved.user;
}

void
wp_col(WpRow *row, const char *name, Oid type, Datum value, bool isnull)
{
	Assert(row->n < WP_MAX_COLS);
	row->names[row->n] = name;
	row->types[row->n] = type;
	row->values[row->n] = isnull ? (Datum) 0 : value;
	row->nulls[row->n] = isnull ? 'n' : ' ';
	row->n++;
}

/* A figure that is NULL when negative (not measured). */
void
wp_col_fig(WpRow *row, const char *name, double v)
{
	wp_col(row, name, FLOAT8OID, Float8GetDatum(v), v < 0);
}

/*
 * INSERT the row into `table`, with `returning` (or NULL); the SPI result
 * holds what it returned.
 */
void
wp_row_insert(WpRow *row, const char *table, const char *returning)
{
	StringInfoData sql;
	int			rc;

	initStringInfo(&sql);
	appendStringInfo(&sql, "INSERT INTO %s (", table);
	for (int i = 0; i < row->n; i++)
		appendStringInfo(&sql, "%s%s", i > 0 ? ", " : "", row->names[i]);
	appendStringInfoString(&sql, ") VALUES (");
	for (int i = 0; i < row->n; i++)
		appendStringInfo(&sql, "%s$%d", i > 0 ? ", " : "", i + 1);
	appendStringInfoChar(&sql, ')');
	if (returning)
		appendStringInfo(&sql, " RETURNING %s", returning);
	rc = SPI_execute_with_args(sql.data, row->n, row->types, row->values, row->nulls,
							   false, 0);
	if (rc != (returning ? SPI_OK_INSERT_RETURNING : SPI_OK_INSERT))
		elog(ERROR, "could not insert into %s: %s", table, SPI_result_code_string(rc));
}

/*
 * The version of the extension's schema, read once per sweep (its first
 * row): a library newer than the SQL (before ALTER EXTENSION walpressure
 * UPDATE) records rows without the columns newer versions added.  As a
 * number, 0.6.0 as 600.  Inside SPI, as the owner.
 */
void
wp_rows_read_schema(void)
{
	int			major = 0,
				minor = 0,
				patch = 0;

	if (SPI_execute("SELECT extversion FROM pg_catalog.pg_extension WHERE extname = 'walpressure'",
					true, 1) != SPI_OK_SELECT || SPI_processed != 1)
		elog(ERROR, "could not read the version of the extension walpressure");
	if (sscanf(SPI_getvalue(SPI_tuptable->vals[0], SPI_tuptable->tupdesc, 1), "%d.%d.%d",
			   &major, &minor, &patch) < 2)
		elog(ERROR, "could not read the version of the extension walpressure");
	wp_schema = major * 10000 + minor * 100 + patch;
}

/* Does the schema have what version `version` (0.4.0 as 400) added? */
bool
wp_schema_has(int version)
{
	Assert(wp_schema > 0);
	return wp_schema >= version;
}
