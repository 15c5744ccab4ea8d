/*-------------------------------------------------------------------------
 *
 * wal_device.c
 *		The disk that holds pg_wal: the one a cap throttles (a whole disk,
 *		so a partition is mapped to its disk; a file system without a
 *		block device, major 0 as tmpfs, overlay, btrfs or NFS, cannot be
 *		throttled), its IO counters in /proc/diskstats, and what /sys says
 *		of it for a sweep's fingerprint.
 *
 * IDENTIFICATION
 *	  src/system/wal_device.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include <limits.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "common/string.h"
#include "miscadmin.h"
#include "storage/fd.h"

#include "system/wal_device.h"

/*
 * Parse "MAJ:MIN" strictly.
 */
bool
wp_parse_device(const char *s, WpDevice *dev)
{
	unsigned	maj;
	unsigned	min;
	char		extra;

	if (sscanf(s, "%u:%u%c", &maj, &min, &extra) != 2)
		return false;
	dev->major = maj;
	dev->minor = min;
	return true;
}

/*
 * The whole disk of a block device: a partition's parent, found through
 * /sys/dev/block/MAJ:MIN/partition and the parent directory's dev file.
 */
static WpDevice
wp_whole_disk(WpDevice dev)
{
	char		path[MAXPGPATH];
	char		real[PATH_MAX];
	char		line[64];
	FILE	   *f;
	WpDevice	disk = dev;

	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u/partition", dev.major, dev.minor);
	if (access(path, F_OK) != 0)
		return dev;				/* not a partition */
	snprintf(path, sizeof(path), "/sys/dev/block/%u:%u", dev.major, dev.minor);
	if (realpath(path, real) == NULL)
		return dev;
	snprintf(path, sizeof(path), "%s/../dev", real);
	f = fopen(path, "r");
	if (f == NULL)
		return dev;
	if (fgets(line, sizeof(line), f) == NULL)
		disk = dev;
	else
	{
		pg_strip_crlf(line);
		if (!wp_parse_device(line, &disk))
			disk = dev;
	}
	fclose(f);
	return disk;
}

/*
 * The device to cap: `override` ("MAJ:MIN") if given, else the disk that
 * holds pg_wal.  ERROR when it cannot be throttled.
 */
WpDevice
wp_wal_device(const char *override)
{
	WpDevice	dev;
	struct stat st;

	if (override != NULL)
	{
		if (!wp_parse_device(override, &dev))
			ereport(ERROR,
					(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
					 errmsg("invalid device \"%s\"", override),
					 errhint("Give the disk as MAJ:MIN, for example '8:0' (lsblk shows them).")));
	}
	else
	{
		char	   *wal = psprintf("%s/pg_wal", DataDir);

		if (stat(wal, &st) != 0)
			ereport(ERROR,
					(errcode_for_file_access(),
					 errmsg("could not stat \"%s\": %m", wal)));
		dev.major = major(st.st_dev);
		dev.minor = minor(st.st_dev);
	}

	if (dev.major == 0)
		ereport(ERROR,
				(errcode(ERRCODE_FEATURE_NOT_SUPPORTED),
				 errmsg("%s device %u:%u, which has no block device and cannot be throttled",
						override ? "the cap cannot apply to" : "pg_wal is on",
						dev.major, dev.minor),
				 errdetail("Major number 0 means a file system such as tmpfs, overlay, btrfs or NFS."),
				 errhint("Pass the disk underneath as device => 'MAJ:MIN' (lsblk shows them).")));
	return wp_whole_disk(dev);
}

/*
 * The disk of pg_wal, without an error: false when it has no block device.
 */
bool
wp_wal_device_try(WpDevice *dev)
{
	struct stat st;

	if (stat(psprintf("%s/pg_wal", DataDir), &st) != 0 || major(st.st_dev) == 0)
		return false;
	dev->major = major(st.st_dev);
	dev->minor = minor(st.st_dev);
	*dev = wp_whole_disk(*dev);
	return true;
}

/*
 * Reads and writes completed by `dev`, all processes (/proc/diskstats).
 */
bool
wp_diskstats_ios(WpDevice dev, uint64 *reads, uint64 *writes)
{
	FILE	   *f = fopen("/proc/diskstats", "r");
	char		line[512];
	bool		found = false;

	*reads = *writes = 0;
	if (f == NULL)
		return false;
	while (!found && fgets(line, sizeof(line), f))
	{
		unsigned	maj;
		unsigned	min;
		unsigned long long r;
		unsigned long long w;

		if (sscanf(line, "%u %u %*s %llu %*u %*u %*u %llu", &maj, &min, &r, &w) == 4 &&
			maj == dev.major && min == dev.minor)
		{
			*reads = r;
			*writes = w;
			found = true;
		}
	}
	fclose(f);
	return found;
}
/* The first line of a small file under /sys, or NULL. */
static char *
wp_sys_line(const char *path)
{
	char		buf[256];
	FILE	   *f = AllocateFile(path, "r");
	char	   *line = NULL;

	if (f == NULL)
		return NULL;
	if (fgets(buf, sizeof(buf), f) != NULL)
	{
		buf[strcspn(buf, "\n")] = '\0';
		line = pstrdup(buf);
	}
	FreeFile(f);
	return line;
}

/*
 * The disk pg_wal is on, for the sweep's fingerprint: "254:0 vda, not
 * rotational" (what /sys says of it); NULL when it has no block device.
 */
char *
wp_wal_disk(void)
{
	WpDevice	dev;
	char	   *uevent;
	char	   *name = NULL;
	char	   *rot;
	FILE	   *f;
	char		buf[256];

	if (!wp_wal_device_try(&dev))
		return NULL;
	uevent = psprintf("/sys/dev/block/%u:%u/uevent", dev.major, dev.minor);
	if ((f = AllocateFile(uevent, "r")) != NULL)
	{
		while (fgets(buf, sizeof(buf), f) != NULL)
			if (strncmp(buf, "DEVNAME=", 8) == 0)
			{
				buf[strcspn(buf, "\n")] = '\0';
				name = pstrdup(buf + 8);
			}
		FreeFile(f);
	}
	/* a partition's queue is its disk's */
	rot = wp_sys_line(psprintf("/sys/dev/block/%u:%u/queue/rotational", dev.major, dev.minor));
	if (rot == NULL)
		rot = wp_sys_line(psprintf("/sys/dev/block/%u:%u/../queue/rotational", dev.major, dev.minor));
	return psprintf("%u:%u%s%s%s", dev.major, dev.minor, name ? " " : "", name ? name : "",
					rot == NULL ? "" : strcmp(rot, "0") == 0 ? ", not rotational" : ", rotational");
}

