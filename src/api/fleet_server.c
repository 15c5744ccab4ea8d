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
 * options, then the server's, then the user mapping's (the last one of a
 * name wins): the options are read here in that order.
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
 * long it may wait and whom it trusts: the last of each name among the
 * wrapper's, the server's and the mapping's; and which of them the server's
 * own options hold (for a HINT's ADD or SET).
 */
typedef struct WpFleetConnOpts
{
	const char *connect_timeout;
	const char *host;
	const char *hostaddr;
	const char *sslmode;
	const char *channel_binding;
	bool		server_has_connect_timeout;
	bool		server_has_sslmode;
	bool		server_has_channel_binding;
} WpFleetConnOpts;

static void
wp_fleet_read_opts(List *options, WpFleetConnOpts *o, bool server)
{
	ListCell   *lc;

	foreach(lc, options)
	{
		DefElem    *def = (DefElem *) lfirst(lc);
		const char *v = defGetString(def);

		if (strcmp(def->defname, "connect_timeout") == 0)
		{
			o->connect_timeout = v;
			o->server_has_connect_timeout |= server;
		}
		else if (strcmp(def->defname, "host") == 0)
			o->host = v;
		else if (strcmp(def->defname, "hostaddr") == 0)
			o->hostaddr = v;
		else if (strcmp(def->defname, "sslmode") == 0)
		{
			o->sslmode = v;
			o->server_has_sslmode |= server;
		}
		else if (strcmp(def->defname, "channel_binding") == 0)
		{
			o->channel_binding = v;
			o->server_has_channel_binding |= server;
		}
	}
}

/*
 * A connect_timeout the fleet can use: a whole number of seconds from 1 to
 * WP_FLEET_MAX_CONNECT_TIMEOUT (libpq reads 1 as 2), spaces around it
 * allowed as libpq allows them.
 */
static bool
wp_fleet_timeout_ok(const char *v)
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
	const char *h = o->host;

	if (o->hostaddr != NULL && o->hostaddr[0] != '\0')
		return true;
	if (h == NULL)
		return false;
	while (*h != '\0')
	{
		while (*h == ' ')
			h++;
		if (*h != '\0' && *h != ',' && *h != '/' && *h != '@')
			return true;
		while (*h != '\0' && *h != ',')
			h++;
		if (*h == ',')
			h++;
	}
	return false;
}

/*
 * What the fleet asks of the server's connection (connect_timeout), and at
 * registration what it advises (sslmode, channel_binding).
 */
static void
wp_fleet_check_opts(ForeignServer *srv, Oid role, bool registering)
{
	WpFleetConnOpts o = {0};
	const char *name = srv->servername;
	const char *qname = quote_identifier(name);
	bool		verified;
	bool		bound;

	wp_fleet_read_opts(GetForeignDataWrapper(srv->fdwid)->options, &o, false);
	wp_fleet_read_opts(srv->options, &o, true);
	wp_fleet_read_opts(GetUserMapping(role, srv->serverid)->options, &o, false);

	if (o.connect_timeout == NULL)
		ereport(ERROR,
				(errcode(ERRCODE_OBJECT_NOT_IN_PREREQUISITE_STATE),
				 errmsg("foreign server \"%s\" has no connect_timeout", name),
				 errdetail("Without it, connecting to a server that does not answer waits as long as the kernel tries (minutes), and on PostgreSQL 15 no cancel interrupts that wait."),
				 errhint("ALTER SERVER %s OPTIONS (ADD connect_timeout '10');", qname)));
	if (!wp_fleet_timeout_ok(o.connect_timeout))
		ereport(ERROR,
				(errcode(ERRCODE_INVALID_PARAMETER_VALUE),
				 errmsg("foreign server \"%s\" has a connect_timeout the fleet cannot use", name),
				 errdetail("It is \"%s\"; the fleet needs a whole number of seconds from 1 to %d: on PostgreSQL 15 a cancel waits that long while connecting, for each host the server names.",
						   o.connect_timeout, WP_FLEET_MAX_CONNECT_TIMEOUT),
				 errhint("ALTER SERVER %s OPTIONS (%s connect_timeout '10');", qname,
						 o.server_has_connect_timeout ? "SET" : "ADD")));

	if (!registering || !wp_fleet_over_tcp(&o))
		return;
	verified = o.sslmode != NULL &&
		(strcmp(o.sslmode, "verify-full") == 0 || strcmp(o.sslmode, "verify-ca") == 0);
	bound = o.channel_binding != NULL && strcmp(o.channel_binding, "require") == 0;
	if (!verified || !bound)
	{
		char	   *fix;

		if (!verified && !bound)
			fix = psprintf("%s sslmode 'verify-full', %s channel_binding 'require'",
						   o.server_has_sslmode ? "SET" : "ADD",
						   o.server_has_channel_binding ? "SET" : "ADD");
		else if (!verified)
			fix = psprintf("%s sslmode 'verify-full'", o.server_has_sslmode ? "SET" : "ADD");
		else
			fix = psprintf("%s channel_binding 'require'", o.server_has_channel_binding ? "SET" : "ADD");
		ereport(NOTICE,
				(errmsg("foreign server \"%s\" is reached over TCP without sslmode 'verify-full' and channel_binding 'require'", name),
				 errdetail("Its sslmode is %s and its channel_binding %s.  Unless its certificate is verified, whoever answers at that address can ask for the mapped role's password in clear text and get it; with channel_binding 'require' the password goes only into SCRAM bound to the TLS channel.",
						   o.sslmode ? o.sslmode : "prefer (the default)",
						   o.channel_binding ? o.channel_binding : "prefer (the default)"),
				 errhint("ALTER SERVER %s OPTIONS (%s);", qname, fix)));
	}
}

/*
 * A foreign server the caller may reach the fleet's way: it exists, the
 * caller may use it, a user mapping of the caller's own role is there, and
 * its connection has a deadline.  Returns its oid.
 */
Oid
wp_fleet_server(const char *name, bool registering)
{
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
	wp_fleet_check_opts(srv, role, registering);
	return srv->serverid;
}
