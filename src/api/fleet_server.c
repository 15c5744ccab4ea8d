/*-------------------------------------------------------------------------
 *
 * fleet_server.c
 *		A server of the fleet, as the caller may reach it: a foreign server
 *		the caller may use, through a user mapping of the caller's own role
 *		(never PUBLIC's), whose connection cannot hold the centre: a
 *		connect_timeout, bounded, since on PostgreSQL 15 dblink_connect waits
 *		in PQconnectdb, which no cancel and no termination interrupts.  At
 *		registration it says when a server reached over TCP is not verified
 *		(sslmode) and its password not bound to the channel
 *		(channel_binding): a server answering in its place could ask for
 *		the mapped role's password in clear text.
 *
 * dblink builds its connection string from the foreign-data wrapper's
 * options, the server's and the user mapping's, but keeps of each only what
 * may be there (is_valid_dblink_option): "user" and the secret options
 * (password, ...) from the mapping, every other one, connect_timeout, host,
 * hostaddr, sslmode and channel_binding among them, from the server only,
 * whatever the wrapper's validator lets a mapping hold.  So those are read
 * here from the server's options alone: one on the mapping or the wrapper
 * is not the connection's.
 *
 * IDENTIFICATION
 *	  src/api/fleet_server.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "catalog/pg_user_mapping.h"
#include "commands/defrem.h"
#include "foreign/foreign.h"
#include "miscadmin.h"
#include "utils/acl.h"
#include "utils/builtins.h"
#include "utils/syscache.h"

#include "compat.h"
#include "api/fleet_server.h"

/*
 * The options of the connection dblink makes to a server that decide how
 * long it may wait and whom it trusts, from the server's options (the last
 * of each name).
 */
typedef struct WpFleetConnOpts
{
	const char *connect_timeout;
	const char *host;
	const char *hostaddr;
	const char *sslmode;
	const char *channel_binding;
	const char *service;
} WpFleetConnOpts;

static void
wp_fleet_read_opts(List *options, WpFleetConnOpts *o)
{
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		const char *v = defGetString(def);

		if (strcmp(def->defname, "connect_timeout") == 0)
			o->connect_timeout = v;
		else if (strcmp(def->defname, "host") == 0)
			o->host = v;
		else if (strcmp(def->defname, "hostaddr") == 0)
			o->hostaddr = v;
		else if (strcmp(def->defname, "sslmode") == 0)
			o->sslmode = v;
		else if (strcmp(def->defname, "channel_binding") == 0)
			o->channel_binding = v;
		else if (strcmp(def->defname, "service") == 0)
			o->service = v;
	}
}

/*
 * The entries of a comma-separated host or hostaddr list, one a call: the
 * next entry at *rest (its leading spaces skipped; it ends at a comma or
 * the string's end), *rest moved past it, NULL after the last.  Start with
 * *rest the list, NULL for an empty one.
 */
static const char *
wp_fleet_list_next(const char **rest)
{
	const char *entry = *rest;
	const char *comma;

	if (entry == NULL)
		return NULL;
	while (*entry == ' ')
		entry++;
	comma = strchr(entry, ',');
	*rest = comma != NULL ? comma + 1 : NULL;
	return entry;
}

/* The list v, to walk with wp_fleet_list_next: NULL when it is empty. */
static const char *
wp_fleet_list(const char *v)
{
	return v != NULL && v[0] != '\0' ? v : NULL;
}

/* How many entries a comma-separated host or hostaddr list has (0 for none). */
static int
wp_fleet_list_len(const char *v)
{
	int			n = 0;

	for (const char *rest = wp_fleet_list(v); wp_fleet_list_next(&rest) != NULL;)
		n++;
	return n;
}

/* Does a list of options (a mapping's, a wrapper's) name connect_timeout? */
static bool
wp_fleet_names_timeout(List *options)
{
	ListCell   *lc;

	foreach(lc, options)
	{
		if (strcmp(((DefElem *) lfirst(lc))->defname, "connect_timeout") == 0)
			return true;
	}
	return false;
}

/*
 * A connect_timeout the fleet can use: a whole number of seconds from 1 to
 * WP_FLEET_MAX_CONNECT_TIMEOUT (libpq reads 1 as 2), spaces around it
 * allowed as libpq allows them.
 */
static bool
wp_fleet_timeout_ok(const char *v, int *seconds)
{
	long		n = 0;
	int			digits = 0;

	while (*v == ' ' || *v == '\t')
		v++;
	for (; *v >= '0' && *v <= '9'; v++)
	{
		n = n * 10 + (*v - '0');
		if (++digits > 6)
			return false;
	}
	while (*v == ' ' || *v == '\t')
		v++;
	*seconds = (int) Max(n, 2);	/* libpq reads 1 as 2 */
	return digits > 0 && *v == '\0' && n >= 1 && n <= WP_FLEET_MAX_CONNECT_TIMEOUT;
}

/*
 * Is the server reached over TCP?  A hostaddr, or a host (of a list) that
 * is neither a socket directory (/...) nor an abstract socket (@...).
 * Neither: libpq's default, the local socket.
 */
static bool
wp_fleet_over_tcp(const WpFleetConnOpts *o)
{
	const char *rest = wp_fleet_list(o->host);
	const char *h;

	if (o->hostaddr != NULL && o->hostaddr[0] != '\0')
		return true;
	while ((h = wp_fleet_list_next(&rest)) != NULL)
	{
		if (*h != '\0' && *h != ',' && *h != '/' && *h != '@')
			return true;
	}
	return false;
}

/*
 * What the fleet asks of the server's connection (no service, whose file
 * would name hosts the fleet does not see; a connect_timeout), and at
 * registration what it advises (sslmode, channel_binding).  Returns the
 * longest the connection may take: libpq keeps connect_timeout for each
 * host it tries, so it times the hosts the server names.
 */
static int
wp_fleet_check_opts(ForeignServer *srv, Oid role, bool registering)
{
	WpFleetConnOpts o = {0};
	int			seconds = 0;
	int			hosts;
	const char *name = srv->servername;
	const char *qname = quote_identifier(name);
	bool		verified;
	bool		bound;

	wp_fleet_read_opts(srv->options, &o);

	if (o.service != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("foreign server \"%s\" names a service, which the fleet cannot use", name),
				 errdetail("The hosts a service names are in a file of the server's machine that the fleet does not read: it could not say whether the connection is over TCP, nor how many hosts it may wait for."),
				 errhint("ALTER SERVER %s OPTIONS (DROP service, ADD host '...', ADD port '...', ADD dbname '...');", qname)));
	if (o.connect_timeout == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("foreign server \"%s\" has no connect_timeout", name),
				 (wp_fleet_names_timeout(GetUserMapping(role, srv->serverid)->options) ||
				  wp_fleet_names_timeout(GetForeignDataWrapper(srv->fdwid)->options)) ?
				 errdetail("Its user mapping or its foreign-data wrapper has one, which dblink does not use: it takes connect_timeout from the server's options only.  Without it, connecting to a server that does not answer waits as long as the kernel tries (minutes), and on PostgreSQL 15 no cancel interrupts that wait.") :
				 errdetail("Without it, connecting to a server that does not answer waits as long as the kernel tries (minutes), and on PostgreSQL 15 no cancel interrupts that wait."),
				 errhint("ALTER SERVER %s OPTIONS (ADD connect_timeout '10');", qname)));
	if (!wp_fleet_timeout_ok(o.connect_timeout, &seconds))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("foreign server \"%s\" has a connect_timeout the fleet cannot use", name),
				 errdetail("It is \"%s\"; the fleet needs a whole number of seconds from 1 to %d: on PostgreSQL 15 a cancel waits that long while connecting, for each host the server names.",
						   o.connect_timeout, WP_FLEET_MAX_CONNECT_TIMEOUT),
				 errhint("ALTER SERVER %s OPTIONS (SET connect_timeout '10');", qname)));
	hosts = Max(1, Max(wp_fleet_list_len(o.host), wp_fleet_list_len(o.hostaddr)));
	if ((int64) seconds * hosts > WP_FLEET_MAX_CONNECT_WAIT)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("foreign server \"%s\" names %d hosts: with a connect_timeout of %d s a connection may wait " INT64_FORMAT " s, more than the fleet waits (%d s)",
						name, hosts, seconds, (int64) seconds * hosts, WP_FLEET_MAX_CONNECT_WAIT),
				 errdetail("libpq keeps connect_timeout for each host it tries; on PostgreSQL 15 no cancel interrupts that wait."),
				 errhint("Name fewer hosts, or lower its connect_timeout.")));
	seconds *= hosts;

	if (!registering || !wp_fleet_over_tcp(&o))
		return seconds;
	verified = o.sslmode != NULL &&
		(strcmp(o.sslmode, "verify-full") == 0 || strcmp(o.sslmode, "verify-ca") == 0);
	bound = o.channel_binding != NULL && strcmp(o.channel_binding, "require") == 0;
	if (!verified || !bound)
	{
		char	   *fix;

		if (!verified && !bound)
			fix = psprintf("%s sslmode 'verify-full', %s channel_binding 'require'",
						   o.sslmode != NULL ? "SET" : "ADD",
						   o.channel_binding != NULL ? "SET" : "ADD");
		else if (!verified)
			fix = psprintf("%s sslmode 'verify-full'", o.sslmode != NULL ? "SET" : "ADD");
		else
			fix = psprintf("%s channel_binding 'require'", o.channel_binding != NULL ? "SET" : "ADD");
		ereport(NOTICE,
				(errmsg("foreign server \"%s\" is reached over TCP without sslmode 'verify-full' and channel_binding 'require'", name),
				 errdetail("Its sslmode is %s and its channel_binding %s.  Unless its certificate is verified, whoever answers at that address can ask for the mapped role's password in clear text and get it; with channel_binding 'require' the password goes only into SCRAM bound to the TLS channel.",
						   o.sslmode ? o.sslmode : "prefer (the default)",
						   o.channel_binding ? o.channel_binding : "prefer (the default)"),
				 errhint("ALTER SERVER %s OPTIONS (%s);", qname, fix)));
	}
	return seconds;
}

/*
 * A foreign server the caller may reach the fleet's way: it exists, the
 * caller may use it, a user mapping of the caller's own role is there, and
 * its connection has a deadline.  Returns its oid, and in *connect_timeout
 * the seconds dblink's connection to it will wait (when not NULL).
 */
static Oid
wp_fleet_server_checked(const char *name, bool registering, int *connect_timeout)
{
	int			seconds;

	ForeignServer *srv;
	Oid			role = GetUserId();

	srv = GetForeignServerByName(name, true);
	if (srv == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_UNDEFINED_OBJECT),
				 errmsg("foreign server \"%s\" does not exist", name),
				 errhint("A server of the fleet is a foreign server: CREATE SERVER %s FOREIGN DATA WRAPPER postgres_fdw OPTIONS (host '...', dbname '...', connect_timeout '10'); and a user mapping for the roles that use it.",
						 quote_identifier(name))));

	/*
	 * dblink_connect takes a name that is not a foreign server's as a
	 * connection string: a server whose name could read as one is refused,
	 * so that dropping it could never turn its name into a destination.
	 */
	if (strchr(name, '=') != NULL)
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_NAME),
				 errmsg("foreign server \"%s\" has a name the fleet cannot use", name),
				 errdetail("dblink reads a name with \"=\" in it as a connection string."),
				 errhint("ALTER SERVER %s RENAME TO a name without \"=\".", quote_identifier(name))));
	if (wp_foreign_server_aclcheck(srv->serverid, role, ACL_USAGE) != ACLCHECK_OK)
		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("permission denied for foreign server %s", name),
				 errhint("Its owner may GRANT USAGE ON FOREIGN SERVER %s TO %s;",
						 quote_identifier(name), quote_identifier(GetUserNameFromId(role, false)))));
	if (!SearchSysCacheExists2(USERMAPPINGUSERSERVER, ObjectIdGetDatum(role),
							   ObjectIdGetDatum(srv->serverid)))
	{
		bool		public_mapping = SearchSysCacheExists2(USERMAPPINGUSERSERVER,
														   ObjectIdGetDatum(InvalidOid),
														   ObjectIdGetDatum(srv->serverid));

		ereport(ERROR,
				(errcode(ERRCODE_INSUFFICIENT_PRIVILEGE),
				 errmsg("no user mapping for role \"%s\" on foreign server \"%s\"",
						GetUserNameFromId(role, false), name),
				 public_mapping ?
				 errdetail("The fleet does not use the PUBLIC mapping: through it every role that may use the server would act there as the role it maps to.") : 0,
				 errhint("CREATE USER MAPPING FOR %s SERVER %s OPTIONS (user '...', password '...'); with a role of that server that has the rights the fleet's work needs there.",
						 quote_identifier(GetUserNameFromId(role, false)), quote_identifier(name))));
	}
	seconds = wp_fleet_check_opts(srv, role, registering);
	if (connect_timeout != NULL)
		*connect_timeout = seconds;
	return srv->serverid;
}

Oid
wp_fleet_server(const char *name, bool registering)
{
	return wp_fleet_server_checked(name, registering, NULL);
}

/*
 * _fleet_connect_timeout(server): the longest, in seconds, the connection
 * dblink makes for the caller to server may take to be made: its
 * connect_timeout, read as dblink reads it (from the server's options), for
 * each host it names; the server checked as the fleet checks it.  _fleet_connect sets its
 * own deadline from it, so that the deadline and the check read one value.
 */
PG_FUNCTION_INFO_V1(wp_fleet_connect_timeout);

Datum
wp_fleet_connect_timeout(PG_FUNCTION_ARGS)
{
	int			seconds;

	(void) wp_fleet_server_checked(text_to_cstring(PG_GETARG_TEXT_PP(0)), false, &seconds);
	PG_RETURN_INT32(seconds);
}
