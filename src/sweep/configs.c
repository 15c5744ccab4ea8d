/*-------------------------------------------------------------------------
 *
 * configs.c
 *		What each value of a sweep sets: for a sweep of one setting, that
 *		setting; for a configuration sweep (run_sweep('settings', vals),
 *		checked into the request by api/configs_request.c), each value's
 *		own settings; and the server-wide settings the values change.
 *
 * IDENTIFICATION
 *	  src/sweep/configs.c
 *
 *-------------------------------------------------------------------------
 */
#include "postgres.h"

#include "sweep/configs.h"

/*
 * Does value `pos` set `name`?  Its value then.  For a sweep of one
 * setting, the swept setting's value.
 */
bool
wp_value_sets(const WpSweepRequest *req, int pos, const char *name, const char **value)
{
	if (req->kind == WP_PARAM_CONFIG)
	{
		for (int i = req->cfg_first[pos]; i < req->cfg_first[pos] + req->cfg_n[pos]; i++)
			if (strcmp(req->cfg[i].name, name) == 0)
			{
				*value = req->cfg[i].value;
				return true;
			}
		return false;
	}
	if ((req->kind == WP_PARAM_SESSION || req->kind == WP_PARAM_SERVER) &&
		strcmp(req->setting, name) == 0)
	{
		*value = req->vals[pos];
		return true;
	}
	return false;
}

/*
 * The session settings value `pos` sets, into dst (room for `max`);
 * returns how many.
 */
int
wp_value_session_settings(const WpSweepRequest *req, int pos, WpSetting *dst, int max)
{
	int			n = 0;

	if (req->kind == WP_PARAM_CONFIG)
	{
		for (int i = req->cfg_first[pos]; i < req->cfg_first[pos] + req->cfg_n[pos]; i++)
			if (req->cfg[i].kind == WP_PARAM_SESSION)
			{
				if (n >= max)
					elog(ERROR, "too many session settings for one step");
				dst[n++] = req->cfg[i];
			}
	}
	else if (req->kind == WP_PARAM_SESSION)
	{
		if (max < 1)
			elog(ERROR, "too many session settings for one step");
		strlcpy(dst[0].name, req->setting, WP_NAME_MAX);
		strlcpy(dst[0].value, req->vals[pos], WP_VALUE_MAX);
		dst[0].kind = WP_PARAM_SESSION;
		n = 1;
	}
	return n;
}

/*
 * The server-wide settings the values change (names, each once): the swept
 * one, or every server-wide key of a configuration sweep's values.
 */
List *
wp_request_server_names(const WpSweepRequest *req)
{
	List	   *names = NIL;

	if (req->kind == WP_PARAM_SERVER)
		return list_make1(pstrdup(req->setting));
	if (req->kind != WP_PARAM_CONFIG)
		return NIL;
	for (int i = 0; i < req->ncfg; i++)
	{
		ListCell   *lc;
		bool		seen = false;

		if (req->cfg[i].kind != WP_PARAM_SERVER)
			continue;
		foreach(lc, names)
			if (strcmp(lfirst(lc), req->cfg[i].name) == 0)
				seen = true;
		if (!seen)
			names = lappend(names, pstrdup(req->cfg[i].name));
	}
	return names;
}
