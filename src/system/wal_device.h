/*-------------------------------------------------------------------------
 *
 * wal_device.h
 *		The disk that holds pg_wal (wal_device.c).
 *
 * IDENTIFICATION
 *	  src/system/wal_device.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WALPRESSURE_WAL_DEVICE_H
#define WALPRESSURE_WAL_DEVICE_H

typedef struct WpDevice
{
	unsigned	major;
	unsigned	minor;
} WpDevice;

extern bool wp_parse_device(const char *s, WpDevice *dev);
extern WpDevice wp_wal_device(const char *override);
extern bool wp_wal_device_try(WpDevice *dev);
extern bool wp_diskstats_ios(WpDevice dev, uint64 *reads, uint64 *writes);
extern char *wp_wal_disk(void);

#endif							/* WALPRESSURE_WAL_DEVICE_H */
