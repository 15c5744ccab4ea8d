/*-------------------------------------------------------------------------
 *
 * wal_reader.c
 *		The bytes of full-page images in a step's WAL, read from the server's
 *		own WAL with its WAL reader (as pg_walinspect's pg_get_wal_stats and
 *		pg_waldump --stats count them: each image's bimg_len, after any
 *		compression and without its hole), and its records, images and bytes.
 *
 * Read after the clients have exited, between the window's start and end
 * LSNs.  The WAL is the server's own: a segment a checkpoint removed in
 * between means no figure (NULL), never an error that stops the sweep; a
 * read that fails part way is rolled back in a subtransaction.
 *
 * IDENTIFICATION
 *	  src/system/wal_reader.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "access/xact.h"
#include "access/xlog.h"
#include "access/xlog_internal.h"
#include "access/xlogreader.h"
#include "access/xlogutils.h"
#include "miscadmin.h"

#include "compat.h"
#include "system/wal_reader.h"

/*
 * Read the records of the window [start, end) from the reader's first one,
 * adding to the counts.  False when the window was not read to its end: the caller's
 * cancel, a record that could not be read (its message logged), or the WAL
 * ending short of `end` (the last record read ends more than a page header
 * and an alignment before it).
 */
static bool
wp_wal_read_window(XLogReaderState *reader, ReadLocalXLogPageNoWaitPrivate *priv, XLogRecPtr start,
				   XLogRecPtr end, bool (*cancelled) (void), int64 *fpi_bytes, int64 *records,
				   int64 *fpis, int64 *rec_bytes)
{
	XLogRecPtr	last_end = start;
	char	   *errormsg = NULL;

	while (!priv->end_of_wal)
	{
		/* the caller's cancel: no figure, at once */
		if (cancelled != NULL && cancelled())
			return false;
		if (XLogReadRecord(reader, &errormsg) == NULL)
		{
			if (errormsg != NULL)
			{
				ereport(LOG,
						(errmsg("walpressure could not read the WAL of a step: %s", errormsg)));
				return false;
			}
			break;
		}
		if (reader->ReadRecPtr >= end)
			break;
		last_end = reader->EndRecPtr;
		(*records)++;
		*rec_bytes += XLogRecGetTotalLen(reader);
		for (int b = 0; b <= XLogRecMaxBlockId(reader); b++)
			if (XLogRecHasBlockImage(reader, b))
			{
				*fpi_bytes += XLogRecGetBlock(reader, b)->bimg_len;
				(*fpis)++;
			}
		CHECK_FOR_INTERRUPTS();
	}
	return last_end + SizeOfXLogLongPHD + MAXIMUM_ALIGNOF >= end;
}

/*
 * Full-page image bytes of the records that start in [start, end); -1 when
 * the WAL there cannot be read to its end (removed, an error reading it, or
 * the caller's cancel).  Also the records there, the full-page images and
 * the records' bytes (their total length, as pg_stat_wal's wal_bytes counts
 * them), in *records, *fpis and *rec_bytes (when the image bytes are not -1).
 */
int64
wp_wal_fpi_bytes(XLogRecPtr start, XLogRecPtr end, bool (*cancelled) (void),
				 int64 *records, int64 *fpis, int64 *rec_bytes)
{
	XLogReaderState *volatile reader = NULL;
	ReadLocalXLogPageNoWaitPrivate *priv;
	MemoryContext cxt = CurrentMemoryContext;
	ResourceOwner owner = CurrentResourceOwner;
	volatile int64 bytes = 0;
	volatile int64 nrec = 0;
	volatile int64 nfpi = 0;
	volatile int64 nbytes = 0;
	uint32		page_header;
	XLogSegNo	seg;

	if (XLogRecPtrIsInvalid(start) || end <= start || RecoveryInProgress())
		return -1;
	XLByteToSeg(start, seg, wal_segment_size);
	if (seg <= XLogGetLastRemovedSegno())
		return -1;
	/*
	 * every record of the window on disk: the reader reads flushed WAL.  An
	 * insert position just past a page's header (nothing inserted on that
	 * page yet) is past the end of the WAL generated: XLogFlush would raise
	 * "xlog flush request ... is not satisfied".  The page's start covers
	 * every record that starts before it.  (Past the header by more, a
	 * record's tail is on the page: flushed to the position.)
	 */
	page_header = XLogSegmentOffset(end, wal_segment_size) < XLOG_BLCKSZ ? SizeOfXLogLongPHD : SizeOfXLogShortPHD;
	if (end % XLOG_BLCKSZ == page_header)
		XLogFlush(end - end % XLOG_BLCKSZ);
	else
		XLogFlush(end);

	StartTransactionCommand();
	BeginInternalSubTransaction(NULL);
	MemoryContextSwitchTo(cxt);
	PG_TRY();
	{
		char	   *errormsg;
		int64		fpi_bytes = 0;
		int64		r = 0;
		int64		f = 0;
		int64		b = 0;

		priv = palloc0(sizeof(ReadLocalXLogPageNoWaitPrivate));
		reader = XLogReaderAllocate(wal_segment_size, NULL,
									XL_ROUTINE(.page_read = &read_local_xlog_page_no_wait,
											   .segment_open = &wal_segment_open,
											   .segment_close = &wal_segment_close),
									priv);
		if (reader == NULL || XLogRecPtrIsInvalid(wp_find_next_record(reader, start, &errormsg)) ||
			!wp_wal_read_window(reader, priv, start, end, cancelled, &fpi_bytes, &r, &f, &b))
			bytes = -1;
		else
		{
			bytes = fpi_bytes;
			nrec = r;
			nfpi = f;
			nbytes = b;
		}
		if (reader != NULL)
			XLogReaderFree(reader);
		reader = NULL;
		ReleaseCurrentSubTransaction();
	}
	PG_CATCH();
	{
		ErrorData  *edata;

		MemoryContextSwitchTo(cxt);
		edata = CopyErrorData();
		FlushErrorState();
		if (reader != NULL)
			XLogReaderFree(reader);
		reader = NULL;
		RollbackAndReleaseCurrentSubTransaction();
		MemoryContextSwitchTo(cxt);

		/*
		 * a cancel or a shutdown is no read error: it goes on, from the
		 * outer transaction, which the coordinator aborts
		 */
		if (edata->sqlerrcode == ERRCODE_QUERY_CANCELED ||
			edata->sqlerrcode == ERRCODE_ADMIN_SHUTDOWN)
			ReThrowError(edata);
		ereport(LOG,
				(errmsg("walpressure could not read the WAL of a step for its full-page image bytes: %s",
						edata->message)));
		bytes = -1;
	}
	PG_END_TRY();
	CommitTransactionCommand();
	MemoryContextSwitchTo(cxt);
	CurrentResourceOwner = owner;
	*records = nrec;
	*fpis = nfpi;
	*rec_bytes = nbytes;
	return bytes;
}
