/*-------------------------------------------------------------------------
 *
 * fleet_server.h
 *		A server of the fleet as the caller may reach it: USAGE, its own
 *		user mapping, a bounded connect_timeout (fleet_server.c).
 *
 * IDENTIFICATION
 *	  src/api/fleet_server.h
 *
 *-------------------------------------------------------------------------
 */
#ifndef WP_FLEET_SERVER_H
#define WP_FLEET_SERVER_H

/*
 * The longest connect_timeout the fleet takes, in seconds: on PostgreSQL 15
 * a cancel of a call that is connecting waits that long (for each host).
 */
#define WP_FLEET_MAX_CONNECT_TIMEOUT	30
/* the longest a connection may take, all its hosts tried: _fleet_deadline's most */
#define WP_FLEET_MAX_CONNECT_WAIT	3600

extern Oid	wp_fleet_server(const char *name, bool registering);

#endif							/* WP_FLEET_SERVER_H */
