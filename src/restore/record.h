/*-------------------------------------------------------------------------
 *
 * record.h
 *		The one crash record of a running sweep (record.c).
 *
 * IDENTIFICATION
 *	  src/restore/record.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_RECORD_H
#define WALPRESSURE_RECORD_H

#include "nodes/pg_list.h"

#include "system/cgroup.h"

/* The IOPS limits a sweep's cap replaced, to put back. */
typedef struct WpCapRecord
{
	WpDevice	dev;
	int64		prev_write_iops;
	int64		prev_read_iops;
	char		cgroup[256];	/* the cgroup that holds the cap */
} WpCapRecord;

/* What a running sweep must put back if the server stops under it. */
typedef struct WpCrashRecord
{
	int64		sweep_id;
	Oid			dboid;			/* its row's database */
	bool		has_cap;		/* it holds the cap: */
	WpCapRecord cap;
	bool		has_settings;	/* it manages server-wide settings: */
	bool		had_autoconf;	/* postgresql.auto.conf existed before */
	List	   *managed;		/* the settings' names */
	char	   *autoconf;		/* postgresql.auto.conf before the first change */
	Size		autoconf_len;
	bool		needs_sync;		/* a step ran with fsync = off */
	/* as read */
	bool		unreadable;		/* the record is damaged */
	bool		settings_unreadable;	/* ... and may have held settings */
	const char *legacy_file;	/* read from a release before 0.7.0's file */
} WpCrashRecord;

extern bool wp_record_read(WpCrashRecord *rec);
extern void wp_record_write(const WpCrashRecord *rec);
extern void wp_record_remove(int elevel);
extern const char *wp_record_file(const WpCrashRecord *rec);

#endif							/* WALPRESSURE_RECORD_H */
