/*-------------------------------------------------------------------------
 *
 * row_writer.h
 *		How the coordinator writes rows (row_writer.c).
 *
 * IDENTIFICATION
 *	  src/coordinator/row_writer.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_ROW_WRITER_H
#define WALPRESSURE_ROW_WRITER_H

#define WP_MAX_COLS 96

typedef struct WpRow
{
	int			n;
	const char *names[WP_MAX_COLS];
	Oid			types[WP_MAX_COLS];
	Datum		values[WP_MAX_COLS];
	char		nulls[WP_MAX_COLS];
} WpRow;

/* the caller, put back by wp_as_owner_end */
typedef struct WpOwnerSave
{
	Oid			user;
	int			sec;
	int			nest;
} WpOwnerSave;

extern void wp_xact_begin(void);
extern void wp_as_owner_begin(WpOwnerSave *save);
extern void wp_as_owner_end(const WpOwnerSave *save);
extern void wp_xact_end(void);
extern void wp_owner_begin(void);
extern void wp_owner_end(void);
extern Oid	wp_owner_caller(void);
extern void wp_col(WpRow *row, const char *name, Oid type, Datum value, bool isnull);
extern void wp_col_fig(WpRow *row, const char *name, double v);
extern void wp_row_insert(WpRow *row, const char *table, const char *returning);
extern void wp_rows_read_schema(void);
extern bool wp_schema_has(int version);

#endif							/* WALPRESSURE_ROW_WRITER_H */
